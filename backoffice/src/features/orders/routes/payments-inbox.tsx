import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatDateTime, formatMoney } from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import {
  isUnconfirmed,
  useAssignPayment,
  useCheckPaymentAgain,
  usePaymentInbox,
  useRefundPayment,
  type InboxPayment,
} from '../api/mpesa-payments';

function InboxItem({ payment }: { payment: InboxPayment }) {
  const [purchaseNumber, setPurchaseNumber] = useState('');
  const [byHand, setByHand] = useState('');
  const [confirming, setConfirming] = useState(false);
  const assign = useAssignPayment();
  const refund = useRefundPayment();
  const check = useCheckPaymentAgain();
  const overpaid = payment.status === 'matched' && payment.excess > 0;
  const unconfirmed = isUnconfirmed(payment);
  return (
    <Card withBorder data-testid="inbox-payment">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text fw={700}>
            {payment.transId} · {formatMoney(payment.amount, 'KSH')}
          </Text>
          <Text size="sm" c="dimmed">
            {formatDateTime(payment.paidAt)}
          </Text>
        </Group>
        <Text size="sm">
          Account “{payment.account || '(blank)'}” · from {payment.phone || 'unknown'}
          {payment.payerName ? ` (${payment.payerName})` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {overpaid
            ? `Over-paid order ${payment.purchaseNumber} by ${formatMoney(payment.excess, 'KSH')}: give the excess back`
            : payment.reason}
        </Text>
        {unconfirmed ? (
          // Neither assigned nor paid out until M-Pesa confirms it: the clerk can only ask again.
          <Group>
            <Button
              variant="light"
              loading={check.isPending}
              disabled={check.isPending}
              onClick={() => check.mutate(payment.transId)}
            >
              Check again
            </Button>
          </Group>
        ) : (
          <Group align="flex-end" wrap="wrap">
            {!overpaid && (
              <>
                <TextInput
                  label="Purchase number"
                  placeholder="SPD…"
                  value={purchaseNumber}
                  onChange={(e) => setPurchaseNumber(e.currentTarget.value)}
                  error={assign.error ? (assign.error as Error).message : undefined}
                />
                <Button
                  disabled={!purchaseNumber.trim()}
                  loading={assign.isPending}
                  onClick={() => assign.mutate({ transId: payment.transId, purchaseNumber })}
                >
                  Assign to order
                </Button>
              </>
            )}
            <Button
              variant="light"
              color="red"
              loading={refund.isPending}
              onClick={() => setConfirming(true)}
            >
              {overpaid ? 'Refund the excess' : 'Refund'}
            </Button>
            <TextInput
              label="Given back by hand: M-Pesa code or note"
              placeholder="e.g. SKB3H2J1K0"
              value={byHand}
              onChange={(e) => setByHand(e.currentTarget.value)}
              error={refund.error ? (refund.error as Error).message : undefined}
            />
            <Button
              variant="default"
              disabled={!byHand.trim() || refund.isPending}
              loading={refund.isPending}
              onClick={() => refund.mutate({ transId: payment.transId, byHand: byHand.trim() })}
            >
              Record as given back
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => refund.mutateAsync({ transId: payment.transId })}
        title="Refund by M-Pesa"
        message={`are you sure you want to send ${formatMoney(overpaid ? payment.excess : payment.amount, 'KSH')} back to ${payment.phone || 'the payer'}?`}
      />
    </Card>
  );
}

/** Payments to match: paybill payments no order took, for staff to assign or refund. */
export function PaymentsInboxRoute() {
  const inbox = usePaymentInbox();
  const payments = inbox.data?.payments ?? [];
  return (
    <Stack>
      <Title order={2}>Payments to match</Title>
      <Text size="sm" c="dimmed">
        Paybill payments that matched no open order (or several), M-Pesa Express payments no order
        took, and over-payments. Assign one to an order, send it back by M-Pesa, or record that it
        was given back by hand.
      </Text>
      <ListState
        isLoading={inbox.isPending}
        isError={inbox.isError}
        isEmpty={payments.length === 0}
        emptyText="No payments to match"
        errorText="The payments could not be loaded"
      />
      {payments.map((p) => (
        <InboxItem key={p.transId} payment={p} />
      ))}
    </Stack>
  );
}
