import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import {
  canActOnOrganisation,
  ORGANISATION_LIMITS,
  type OrganisationAction,
  type OrganisationStatus,
  type Role,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { OrganisationStatusBadge } from './organisation-status-badge';

const LABELS: Record<OrganisationAction, string> = {
  approve: 'Approve',
  suspend: 'Suspend',
  decline: 'Decline',
};

/** The status, the shop's reason, and the actions the status table allows (a reason for two). */
export function OrganisationStatusPanel({
  status,
  reason,
  role,
  pending,
  onAct,
}: {
  status: OrganisationStatus;
  reason: string;
  role: Role;
  pending?: boolean;
  onAct: (action: OrganisationAction, reason?: string) => Promise<unknown>;
}) {
  const [asking, setAsking] = useState<'suspend' | 'decline' | null>(null);
  const [text, setText] = useState('');
  const actions = (['approve', 'suspend', 'decline'] as const).filter((a) =>
    canActOnOrganisation(a, status, role === 'admin' ? 'admin' : 'staff'),
  );
  const tooLong = text.length > ORGANISATION_LIMITS.statusReason;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <OrganisationStatusBadge status={status} />
      </Group>
      {reason && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Reason: {reason}
        </Text>
      )}
      <Group gap="xs">
        {actions.map((a) => (
          <Button
            key={a}
            variant={a === 'approve' ? 'filled' : 'default'}
            color={a === 'approve' ? 'green' : 'red'}
            loading={pending}
            onClick={() => (a === 'approve' ? void onAct(a).catch(() => {}) : setAsking(a))}
          >
            {LABELS[a]}
          </Button>
        ))}
      </Group>
      <Modal
        opened={asking !== null}
        onClose={() => !pending && setAsking(null)}
        title={asking ? `${LABELS[asking]} this organisation` : ''}
        centered
      >
        <Stack gap="sm">
          <Textarea
            label="Reason"
            description="The organisation's people see it."
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={
              tooLong
                ? `The reason must be at most ${ORGANISATION_LIMITS.statusReason} characters`
                : undefined
            }
            autosize
            minRows={2}
            disabled={pending}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(null)} disabled={pending}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={pending}
              disabled={!text.trim() || tooLong}
              onClick={() =>
                asking &&
                onAct(asking, text.trim())
                  .then(() => {
                    setAsking(null);
                    setText('');
                  })
                  .catch(() => {})
              }
            >
              {asking ? LABELS[asking] : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
