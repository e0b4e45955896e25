import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NativeSelect, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import {
  ORGANISATION_KIND_LABELS,
  ORGANISATION_KINDS,
  ORGANISATION_LIMITS,
  organisationSignUpSchema,
  type OrganisationSignUpForm,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

type Output = z.output<typeof organisationSignUpSchema>;
type Contact = 'billingContact' | 'deliveryContact';

/** Name, KRA PIN, kind and both contacts, checked by the API's own rules as the user types. */
export function OrganisationDetailsForm({
  initial,
  pending,
  onSubmit,
}: {
  initial: OrganisationSignUpForm;
  pending?: boolean;
  onSubmit: (values: Output) => void;
}) {
  const form = useForm<OrganisationSignUpForm, unknown, Output>({
    resolver: zodResolver(organisationSignUpSchema),
    mode: 'onChange',
    defaultValues: initial,
  });
  const e = form.formState.errors;
  const contact = (which: Contact, title: string) => (
    <Stack gap="xs">
      <Title order={4} size="h5">
        {title}
      </Title>
      <TextInput
        label="Name"
        maxLength={ORGANISATION_LIMITS.contactName}
        {...form.register(`${which}.name`)}
        error={e[which]?.name?.message}
        disabled={pending}
      />
      <TextInput
        label="Phone"
        type="tel"
        {...form.register(`${which}.phone`)}
        error={e[which]?.phone?.message}
        disabled={pending}
      />
      <TextInput
        label="E-mail"
        type="email"
        {...form.register(`${which}.email`)}
        error={e[which]?.email?.message}
        disabled={pending}
      />
    </Stack>
  );
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label="Details and contacts">
      <Stack gap="sm">
        <TextInput
          label="Name"
          maxLength={ORGANISATION_LIMITS.name}
          {...form.register('name')}
          error={e.name?.message}
          disabled={pending}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="KRA PIN"
            {...form.register('kraPin')}
            error={e.kraPin?.message}
            disabled={pending}
          />
          <NativeSelect
            label="Kind"
            data={ORGANISATION_KINDS.map((k) => ({ value: k, label: ORGANISATION_KIND_LABELS[k] }))}
            {...form.register('kind')}
            error={e.kind?.message}
            disabled={pending}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {contact('billingContact', 'Billing contact')}
          {contact('deliveryContact', 'Delivery contact')}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={!form.formState.isDirty}>
            Save details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
