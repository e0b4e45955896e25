import { Alert, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { formatDateTime, formatMoney } from '@spc/shared-contracts';
import { dismissRefused, sendRefusedAgain, useOfflineQueue } from '../offline/offline-queue';
import { OFFLINE_TEXTS, useOnline } from '../offline/offline-sync';

/**
 * Always on the till (issue 47): online or offline, how many sales wait on this device, whether
 * they are being sent, and how many the API refused (listed below it with the API's words, until
 * the clerk has dealt with each: a refused sale is never dropped silently).
 */
export function TillStatusLine({ staffId }: { staffId?: string }) {
  const online = useOnline();
  const queue = useOfflineQueue((s) => s.queue);
  const refused = useOfflineQueue((s) => s.refused);
  const sending = useOfflineQueue((s) => s.sending);
  const mine = queue.filter((s) => !staffId || s.staffId === staffId);
  const others = queue.length - mine.length;
  return (
    <Stack gap="xs">
      <Group
        role="status"
        aria-label="Till network status"
        gap="xs"
        wrap="wrap"
        p="xs"
        bg={online ? 'green.0' : 'yellow.1'}
        style={{ borderRadius: 8 }}
      >
        <Badge color={online ? 'green' : 'yellow'} variant="filled" size="lg">
          {online ? OFFLINE_TEXTS.online : 'Offline'}
        </Badge>
        {!online && <Text fw={600}>{OFFLINE_TEXTS.offline}</Text>}
        <Text data-testid="waiting-count">{OFFLINE_TEXTS.waiting(mine.length)}</Text>
        {sending && (
          <Group gap={4}>
            <Loader size="xs" />
            <Text>{OFFLINE_TEXTS.sending}</Text>
          </Group>
        )}
        {refused.length > 0 && (
          <Text c="red" fw={700}>
            {OFFLINE_TEXTS.refused(refused.length)}
          </Text>
        )}
        {others > 0 && (
          <Text size="sm" c="dimmed">
            {`${others} more of another clerk, sent when they sign in here`}
          </Text>
        )}
      </Group>
      {refused.map((r) => (
        <Alert
          key={r.key}
          color="red"
          title={`Refused: a sale of ${formatMoney(r.total)} sold ${formatDateTime(r.input.offline.soldAt)}`}
          data-testid="refused-sale"
        >
          <Text>{r.message}</Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {r.lines.map((l) => `${l.quantity} × ${l.name}, ${l.unitName}`).join('; ')} ·{' '}
            {r.payments.map((p) => (p.code ? `${p.method} ${p.code}` : p.method)).join(', ')}
          </Text>
          <Group gap="xs" mt="xs">
            <Button
              size="sm"
              variant="light"
              disabled={!online}
              onClick={() => void sendRefusedAgain(r.key)}
            >
              Send again
            </Button>
            <Button size="sm" variant="default" onClick={() => void dismissRefused(r.key)}>
              Dealt with: remove from this list
            </Button>
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
