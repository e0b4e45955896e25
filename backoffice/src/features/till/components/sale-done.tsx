import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES, formatMoney, TILL_PAYMENT_LABELS } from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSale, useSendSmsReceipt } from '../api/sales';

/**
 * The sale just made: while its M-Pesa prompt waits, a waiting note (the sale is read again every
 * few seconds); once paid, the change to give, the receipt to print or send, and a new sale.
 */
export function SaleDone({ orderId, onNewSale }: { orderId: string; onNewSale: () => void }) {
  const query = useSale(orderId);
  const sms = useSendSmsReceipt(orderId);
  const sale = query.data;
  if (!sale)
    return query.isError ? (
      <Alert color="red" role="alert" title="The sale could not be read">
        {errorMessage(query.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
        <Button mt="xs" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Alert>
    ) : (
      <Loader role="status" aria-label="Loading" />
    );
  const failed = sale.payments.find((p) => p.state === 'failed');
  const waiting = sale.state === 'awaiting-payment';
  return (
    <Card withBorder padding="lg" aria-label="Sale done">
      <Stack>
        <Title order={2}>{waiting ? 'Waiting for M-Pesa' : `Sale ${sale.purchaseNumber}`}</Title>
        {waiting && !failed && (
          <Group gap="sm" role="status">
            <Loader size="sm" />
            <Text>
              Waiting for the buyer to enter their M-Pesa PIN
              {sale.phone ? ` on ${sale.phone}` : ''}. This updates by itself.
            </Text>
          </Group>
        )}
        {failed && (
          <Alert color="red" role="alert" title="M-Pesa did not go through">
            The buyer did not pay {formatMoney(failed.amount)} by{' '}
            {TILL_PAYMENT_LABELS[failed.method]}. Take the money another way in a new sale.
          </Alert>
        )}
        <SaleTotals total={sale.total} change={sale.change} />
        {!waiting && (
          <Group grow wrap="wrap">
            <Button size="lg" component={Link} to={paths.tillReceipt(sale.orderId)}>
              Print receipt
            </Button>
            <Button
              size="lg"
              variant="default"
              onClick={() => sms.mutate()}
              loading={sms.isPending}
              disabled={!sale.phone || sms.isPending || sms.isSuccess}
            >
              {sms.isSuccess ? 'SMS receipt sent' : 'Send SMS receipt'}
            </Button>
          </Group>
        )}
        {!sale.phone && !waiting && (
          <Text size="sm" c="dimmed">
            No phone was given, so no SMS receipt can be sent.
          </Text>
        )}
        {sms.isError && (
          <Text c="red" role="alert">
            {errorMessage(sms.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Text>
        )}
        <Button size="lg" variant="outline" onClick={onNewSale}>
          New sale
        </Button>
      </Stack>
    </Card>
  );
}

/** A sale's total and, when there is any, the change to give (large: read across the counter). */
export function SaleTotals({ total, change }: { total: number; change: number }) {
  return (
    <>
      <Group justify="space-between">
        <Text fz="lg">Total</Text>
        <Text fz="lg" fw={700}>
          {formatMoney(total)}
        </Text>
      </Group>
      {change > 0 && (
        <Group justify="space-between">
          <Text fz="xl">Change to give</Text>
          <Text fz="xl" fw={800} data-testid="sale-change">
            {formatMoney(change)}
          </Text>
        </Group>
      )}
    </>
  );
}
