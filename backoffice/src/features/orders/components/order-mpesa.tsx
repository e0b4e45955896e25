import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { formatDateTime, formatMoney } from '@spc/shared-contracts';
import { useOrderMpesa, useRetryRefund, type MpesaRefund } from '../api/mpesa-payments';

const REFUND_WORDS: Record<string, { label: string; color: string }> = {
  queued: { label: 'Waiting to send', color: 'gray' },
  sending: { label: 'Sending', color: 'blue' },
  pending: { label: 'Pending at M-Pesa', color: 'blue' },
  sent: { label: 'Sent', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

function Refund({ refund, canRetry }: { refund: MpesaRefund; canRetry: boolean }) {
  const retry = useRetryRefund();
  const words = REFUND_WORDS[refund.status] ?? { label: refund.status, color: 'gray' };
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="mpesa-refund">
      <div>
        <Text size="sm">
          {formatMoney(refund.amount, 'KSH')} by{' '}
          {refund.method === 'reversal' ? `reversal of ${refund.originalTransId}` : 'B2C'}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(refund.updatedAt)}
          {refund.transactionId ? ` · ${refund.transactionId}` : ''}
          {refund.status === 'failed' && refund.resultDesc ? ` · ${refund.resultDesc}` : ''}
        </Text>
      </div>
      <Group gap="xs">
        <Badge color={words.color} variant="light">
          Refund {words.label.toLowerCase()}
        </Badge>
        {canRetry && refund.status === 'failed' && (
          <Button size="xs" loading={retry.isPending} onClick={() => retry.mutate(refund.id)}>
            Send again
          </Button>
        )}
      </Group>
    </Group>
  );
}

/** The order's paybill payments and M-Pesa refunds (with their status), on the order page. */
export function OrderMpesa({
  orderId,
  canRetry,
  refundDue = false,
}: {
  orderId: string;
  canRetry: boolean;
  /** A paid order was cancelled: its M-Pesa refund may be on its way. */
  refundDue?: boolean;
}) {
  const query = useOrderMpesa(orderId, refundDue);
  const data = query.data;
  if (!data || (data.payments.length === 0 && data.refunds.length === 0)) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        M-Pesa payments and refunds
      </Title>
      <Stack gap="xs">
        {data.payments.map((p) => (
          <Text size="sm" key={p.transId}>
            {`Paybill ${p.transId}: ${formatMoney(p.amount, 'KSH')} on ${formatDateTime(p.paidAt)}`}
            {p.excess > 0 ? ` (over-paid by ${formatMoney(p.excess, 'KSH')})` : ''}
          </Text>
        ))}
        {data.refunds.map((r) => (
          <Refund key={r.id} refund={r} canRetry={canRetry} />
        ))}
      </Stack>
    </Card>
  );
}
