import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  formatDate,
  organisationInvitationSchema,
  ORGANISATION_ROLE_LABELS,
  ORGANISATION_ROLES,
  type OrganisationInvitationView,
  type OrganisationPerson,
  type OrganisationRole,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

const ROLE_CHOICES = ORGANISATION_ROLES.map((r) => ({
  value: r,
  label: ORGANISATION_ROLE_LABELS[r],
}));
type InviteInput = z.input<typeof organisationInvitationSchema>;
type InviteOutput = z.output<typeof organisationInvitationSchema>;

/** Invite by e-mail with a role; the form empties once the API has recorded it. */
export function InviteForm({
  pending,
  onSubmit,
}: {
  pending?: boolean;
  onSubmit: (values: InviteOutput) => Promise<unknown>;
}) {
  const form = useForm<InviteInput, unknown, InviteOutput>({
    resolver: zodResolver(organisationInvitationSchema),
    defaultValues: { email: '', role: 'buyer' },
  });
  const submit = form.handleSubmit((values) =>
    onSubmit(values)
      .then(() => form.reset())
      .catch(() => {}),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Invite a person">
      <Group align="flex-start" gap="xs">
        <TextInput
          label="E-mail"
          type="email"
          {...form.register('email')}
          error={form.formState.errors.email?.message}
          disabled={pending}
          w={{ base: '100%', xs: 260 }}
        />
        <NativeSelect
          label="Role"
          data={ROLE_CHOICES}
          {...form.register('role')}
          disabled={pending}
          w={{ base: '100%', xs: 140 }}
        />
        <Button type="submit" loading={pending} mt={{ base: 0, xs: 25 }}>
          Invite
        </Button>
      </Group>
    </form>
  );
}

/** The organisation's people with their roles, waiting invitations, and inviting someone. */
export function OrganisationPeople({
  people,
  invitations,
  busy,
  error,
  onChangeRole,
  onRemove,
  onWithdraw,
  invite,
}: {
  people: OrganisationPerson[];
  invitations: OrganisationInvitationView[];
  busy?: boolean;
  /** The API's last refusal (e.g. the last approver), shown beside the list. */
  error?: string;
  onChangeRole: (accountId: string, role: OrganisationRole) => void;
  onRemove: (accountId: string) => void;
  onWithdraw: (invitationId: string) => void;
  invite: React.ReactNode;
}) {
  return (
    <Stack gap="sm">
      {error && (
        <Text c="red" role="alert" size="sm">
          {error}
        </Text>
      )}
      {people.length === 0 && <Text c="dimmed">No people yet.</Text>}
      {people.map((p) => (
        <Card key={p.accountId} withBorder padding="sm" component="article" aria-label={p.fullName}>
          <Group justify="space-between" gap="xs" align="flex-end">
            <div style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {p.fullName}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {p.email} · joined {formatDate(p.joinedAt)}
              </Text>
            </div>
            <Group gap="xs" wrap="nowrap">
              <NativeSelect
                aria-label={`Role of ${p.fullName}`}
                data={ROLE_CHOICES}
                value={p.role}
                disabled={busy}
                onChange={(e) =>
                  onChangeRole(p.accountId, e.currentTarget.value as OrganisationRole)
                }
              />
              <Button
                variant="default"
                color="red"
                disabled={busy}
                onClick={() => onRemove(p.accountId)}
                aria-label={`Remove ${p.fullName}`}
              >
                Remove
              </Button>
            </Group>
          </Group>
        </Card>
      ))}
      {invitations.length > 0 && (
        <>
          <Title order={4} size="h5">
            Waiting invitations
          </Title>
          {invitations.map((i) => (
            <Group key={i._id} justify="space-between" gap="xs">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {i.email} · {ORGANISATION_ROLE_LABELS[i.role]} · until {formatDate(i.expiresAt)}
              </Text>
              <Button size="xs" variant="subtle" disabled={busy} onClick={() => onWithdraw(i._id)}>
                Withdraw
              </Button>
            </Group>
          ))}
        </>
      )}
      {invite}
    </Stack>
  );
}
