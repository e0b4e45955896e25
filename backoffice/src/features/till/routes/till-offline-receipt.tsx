import { Alert } from '@mantine/core';
import type { TillSaleView } from '@spc/shared-contracts';
import { useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import type { QueuedSale } from '../offline/offline-db';
import { loadOfflineQueue, useOfflineQueue } from '../offline/offline-queue';
import { OFFLINE_TEXTS } from '../offline/offline-sync';
import { ReceiptPage, TillReceipt } from './till-receipt';

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
    <ReceiptPage canPrint={!!queued}>
      {(roll) =>
        queued ? (
          <TillReceipt
            sale={offlineSaleView(queued)}
            roll={roll}
            offlineNote={OFFLINE_TEXTS.receiptNote}
          />
        ) : (
          <Alert color="yellow" title="This offline sale is not on this device">
            It was sent from another tab, or made on another device: find it in today’s sales.
          </Alert>
        )
      }
    </ReceiptPage>
  );
}
