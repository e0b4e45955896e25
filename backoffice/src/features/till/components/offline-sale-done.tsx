import { Alert, Button, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { QueuedSale } from '../offline/offline-db';
import { useOfflineQueue } from '../offline/offline-queue';
import { OFFLINE_TEXTS } from '../offline/offline-sync';
import { SaleTotals } from './sale-done';

/**
 * A sale just charged offline, shown like one made online: the total, the change to give, its
 * receipt and a new sale. Its receipt number follows once it is sent (shown here when it is).
 */
export function OfflineSaleDone({ sale, onNewSale }: { sale: QueuedSale; onNewSale: () => void }) {
  const sent = useOfflineQueue((s) => s.sent.find((x) => x.key === sale.key));
  return (
    <Card withBorder padding="lg" aria-label="Sale done">
      <Stack>
        <Title order={2}>{sent ? `Sale ${sent.purchaseNumber}` : 'Sale kept on this device'}</Title>
        {!sent && (
          <Alert color="yellow" title={OFFLINE_TEXTS.receiptNote}>
            It is sent by itself when the network returns.
          </Alert>
        )}
        <SaleTotals total={sale.total} change={sale.change} />
        <Button
          size="lg"
          component={Link}
          to={sent ? paths.tillReceipt(sent.orderId) : paths.tillOfflineReceipt(sale.key)}
        >
          Print receipt
        </Button>
        <Button size="lg" variant="outline" onClick={onNewSale}>
          New sale
        </Button>
      </Stack>
    </Card>
  );
}
