import { Alert, Anchor, Button, Group, SegmentedControl } from '@mantine/core';
import type { TillSaleView } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import type { QueuedSale } from '../offline/offline-db';
import { loadOfflineQueue, useOfflineQueue } from '../offline/offline-queue';
import { OFFLINE_TEXTS } from '../offline/offline-sync';
import { receiptCss, TillReceipt, type Roll } from './till-receipt';

/** A queued sale as the receipt prints it (what the API answers once it is sent). */
export function offlineSaleView(sale: QueuedSale): TillSaleView {
  const paid = sale.payments.reduce((sum, p) => sum + p.amount, 0);
  return {
    orderId: '',
    purchaseNumber: '',
    sessionId: sale.input.sessionId,
    sellerName: sale.sellerName,
    at: sale.input.offline.soldAt,
    lines: sale.lines.map((l) => ({
      productId: l.productId,
      name: l.name,
      unitName: l.unitName,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      lineTotal: l.lineTotal,
    })),
    total: sale.total,
    paid,
    change: sale.change,
    payments: sale.payments.map((p) => ({
      method: p.method,
      amount: p.amount,
      given: p.given ?? null,
      change: p.method === 'cash' ? sale.change : null,
      code: p.code ?? null,
      state: 'received',
    })),
    phone: sale.input.phone ?? null,
    state: 'paid',
    refunded: 0,
    offline: { soldAt: sale.input.offline.soldAt },
    needsAttention: null,
    short: false,
    etims: null,
  };
}

/**
 * /till/offline-receipt/:key: the receipt of a sale made offline, by its Idempotency-Key, printed
 * from this device (58 or 80 mm, like the online one). Once the sale is sent, it leads to the real
 * receipt with its number.
 */
export function TillOfflineReceiptRoute() {
  const { key = '' } = useParams();
  const [roll, setRoll] = useState<Roll>('80');
  const loaded = useOfflineQueue((s) => s.loaded);
  const waiting = useOfflineQueue((s) => s.queue.find((x) => x.key === key));
  const refused = useOfflineQueue((s) => s.refused.find((x) => x.key === key));
  const queued = waiting ?? refused;
  const sent = useOfflineQueue((s) => s.sent.find((x) => x.key === key));
  useEffect(() => {
    void loadOfflineQueue();
  }, []);
  if (!loaded) return <PageLoader />;
  if (sent) return <Navigate to={paths.tillReceipt(sent.orderId)} replace />;
  return (
    <div
      className="till-receipt-page"
      style={{ padding: 16, background: '#f1f3f1', minHeight: '100vh' }}
    >
      <style data-testid="receipt-print-css">{receiptCss(roll)}</style>
      <Group className="no-print" justify="space-between" mb="md" wrap="wrap">
        <Anchor component={Link} to={paths.till}>
          ← Back to the till
        </Anchor>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label="Paper roll"
            size="md"
            value={roll}
            onChange={(v) => setRoll(v as Roll)}
            data={[
              { value: '58', label: '58 mm' },
              { value: '80', label: '80 mm' },
            ]}
          />
          <Button size="md" onClick={() => window.print()} disabled={!queued}>
            Print
          </Button>
        </Group>
      </Group>
      {queued ? (
        <TillReceipt
          sale={offlineSaleView(queued)}
          roll={roll}
          offlineNote={OFFLINE_TEXTS.receiptNote}
        />
      ) : (
        <Alert color="yellow" title="This offline sale is not on this device">
          It was sent from another tab, or made on another device: find it in today’s sales.
        </Alert>
      )}
    </div>
  );
}
