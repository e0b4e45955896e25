/** How the payments inbox reads the money ledger's entries: what is left to give back, and prompts' payments. */
import type { MoneyEntryRecord } from '../../money/money-ledger.repository';
import type { C2bPayment } from './c2b.schemas';

/** What of an entry's over-payment is still to give back (what it may give back beyond its part). */
export function excessLeft(e: Pick<MoneyEntryRecord, 'amount' | 'returnable' | 'split'>): number {
  return Math.max(0, e.returnable - (e.amount - (e.split?.excess ?? 0)));
}

/** A prompt's payment that no order took, as the inbox lists payments. */
export function promptAsPayment(e: MoneyEntryRecord): C2bPayment {
  return {
    _id: e.code ?? e.reference,
    amount: e.amount,
    account: '',
    phone: e.payer ?? '',
    payerName: '',
    paidAt: new Date(e.at),
    shortcode: '',
    status: e.state === 'open' ? (e.returned > 0 ? 'refund' : 'inbox') : 'matched',
    reason:
      e.state === 'credited'
        ? `An M-Pesa Express payment beyond the total of order ${e.purchaseNumber}: give the excess back`
        : `An M-Pesa Express payment${e.meantFor ? ` for order ${e.meantFor}` : ''} that its order could not take (paid another way, or closed): assign it to another order or give it back`,
    orderId: e.orderId,
    purchaseNumber: e.purchaseNumber,
    matchedBy: e.orderId ? 'staff' : null,
    excess: e.state === 'credited' ? excessLeft(e) : 0,
    refundId: e.returns[0]?.out ?? null,
    confirmations: 1,
    queryConversationId: null,
    queries: 0,
    lastQueriedAt: null,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
