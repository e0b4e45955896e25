/**
 * The money-ledger migration's shapes: the records orders kept of their money before the ledger
 * (issue 38), and the entries the migration writes from them, with the small rules both use.
 */
import { createHash } from 'node:crypto';
import type { ObjectId } from 'mongodb';
import { MPESA_EXPRESS_NAME } from '@spc/shared-contracts';
import { canonicalReceiptCode, isReceiptCode } from '../../common/identifiers';
import type { MoneyEntry } from '../schemas/money-entry.schema';

export const MPESA_SYSTEM = { byId: 'mpesa-express', byName: MPESA_EXPRESS_NAME, byRole: 'system' };

export type Entry = Omit<MoneyEntry, 'code' | 'unconfirmed' | 'verified'> & {
  code?: string;
  unconfirmed?: boolean;
  verified?: boolean;
};

export interface OldOrder {
  _id: ObjectId;
  purchaseNumber: string;
  paymentStatus: string;
  paymentMethod: string | null;
  paymentDetails: {
    amount?: number;
    transactionCode?: string;
    timePaid?: Date | null;
    completedById?: string;
    completedByName?: string;
  } | null;
  totalAmount: number;
  amountPaid?: number;
  paidAt?: Date | null;
  orderDate: Date;
  mpesaCredits?: { transId: string; amount: number; at: Date }[];
  booking?: { deposit: number } | null;
}

export interface C2bDoc {
  _id: string;
  amount: number;
  phone: string;
  paidAt: Date;
  status: string;
  reason?: string;
  orderId: string | null;
  excess?: number;
  refundId?: string | null;
  queries?: number;
  updatedAt?: Date;
}

export interface PushDoc {
  _id: string;
  orderId: string;
  phone: string;
  amount: number;
  receipt?: string | null;
  receipts?: string[];
  callback?: { transactionDate?: Date | null } | null;
}

export interface RefundDoc {
  _id: ObjectId;
  orderId: string;
  method: string;
  amount: number;
  reference?: string;
  sendByMpesa?: boolean;
  refundedById: string;
  refundedByName: string;
  refundedAt: Date;
}

export interface TransferDoc {
  _id: string;
  method: 'reversal' | 'b2c';
  amount: number;
  phone?: string;
  originalTransId?: string | null;
  transactionId?: string | null;
  createdAt?: Date;
}

/** What one order's money was before the ledger, read from every old record of it. */
export interface OldMoney {
  order: OldOrder;
  /** Its paybill payments, by TransID. */
  paybill: Map<string, C2bDoc>;
  /** Its paid M-Pesa Express prompts. */
  prompts: PushDoc[];
  refund: RefundDoc | null;
  /** M-Pesa transfers (mpesa_refunds) by id: `order:<id>`, `excess:<TransID>`. */
  transfers: Map<string, TransferDoc>;
}

/** An order's entries and what the order keeps of them. */
export interface OrderLedger {
  entries: Entry[];
  credits: {
    entry: string;
    amount: number;
    deposit: number;
    balance: number;
    excess: number;
    at: Date;
  }[];
  amountPaid: number;
  /** Its refund's outgoing entries, which its cancellation names. */
  refundOut: string[];
  notes: string[];
}

/** A stable id for what has no id of its own, so a second run writes the same entry. */
export const stableId = (...parts: string[]) =>
  createHash('sha1').update(parts.join('\0')).digest('hex').slice(0, 24);

/** A code in its one spelling, or null when it is no M-Pesa code. */
export function mpesaCode(typed: string | null | undefined): string | null {
  const code = canonicalReceiptCode(typed ?? '');
  return code && isReceiptCode(code) ? code : null;
}

export const wholeShillings = (n: number) => Number.isInteger(n) && n > 0;
