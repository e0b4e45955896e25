/** A paybill payment matched to no order before the ledger, as its open entry (and its reversal). */
import { toMpesaPhone } from '@spc/shared-contracts';
import { MPESA_SYSTEM, type C2bDoc, type Entry, type TransferDoc } from './old-money-records';

/** A paybill payment waiting in the inbox (or given back from it): its open entry, and its reversal. */
export function ledgerOfInboxPayment(
  doc: C2bDoc,
  transfer: TransferDoc | undefined,
  now = new Date(),
): Entry[] {
  const unconfirmed =
    doc.status === 'verifying' || /^M-Pesa did not confirm/.test(doc.reason ?? '');
  const entry: Entry = {
    _id: `c2b:${doc._id}`,
    direction: 'in',
    kind: 'paybill',
    amount: doc.amount,
    code: doc._id,
    reference: '',
    orderId: null,
    purchaseNumber: null,
    payer: toMpesaPhone(doc.phone) ?? null,
    state: 'open',
    meantFor: null,
    ...(unconfirmed ? { unconfirmed: true } : {}),
    ...((doc.queries ?? 0) > 0 && !unconfirmed ? { verified: true } : {}),
    split: null,
    returnable: doc.amount,
    returned: 0,
    returns: [],
    of: null,
    purpose: null,
    send: false,
    transfer: null,
    ...MPESA_SYSTEM,
    at: new Date(doc.paidAt),
    claimedAt: null,
    createdAt: new Date(doc.paidAt),
    updatedAt: now,
  };
  if (doc.status !== 'refund' || !doc.refundId) return [entry];
  entry.returnable = 0;
  entry.returned = doc.amount;
  entry.returns = [{ out: doc.refundId, amount: doc.amount }];
  const at = new Date(transfer?.createdAt ?? doc.updatedAt ?? doc.paidAt);
  return [
    entry,
    {
      _id: doc.refundId,
      direction: 'out',
      kind: 'reversal',
      amount: doc.amount,
      reference: transfer?.transactionId ?? '',
      orderId: null,
      purchaseNumber: null,
      payer: null,
      state: 'recorded',
      meantFor: null,
      split: null,
      returnable: 0,
      returned: 0,
      returns: [],
      of: entry._id,
      purpose: 'inbox',
      send: true,
      transfer: transfer ? transfer._id : null,
      ...MPESA_SYSTEM,
      at,
      claimedAt: null,
      createdAt: at,
      updatedAt: now,
    },
  ];
}
