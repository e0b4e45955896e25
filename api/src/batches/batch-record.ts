import type { StoredBatchStatus } from '@spc/shared-contracts';
import type { Types } from 'mongoose';
import type { Batch } from './schemas/batch.schema';

/** A batch as the API reads it (plain, its ledger's bookkeeping left out). */
export interface BatchRecord {
  _id: string;
  productId: string;
  productName: string;
  sownOn: string;
  readyOn: string;
  started: number;
  lost: number;
  booked: number;
  available: number;
  /** What the batch holds now: its stock on the ledger under `batch:<id>`. */
  quantity: number;
  status: StoredBatchStatus;
  readyAt: string | null;
  failedAt: string | null;
  note: string;
  createdAt: string;
  /** The bookings' seedlings held here, in booking order. */
  holds: { orderId: string; seedlings: number; at: string }[];
  /** Seedlings moved into ready stock when the batch was made ready (0 before). */
  readyMoved: number;
  /**
   * 'pending' between making the batch ready and its seedlings reaching the product, 'done' then,
   * 'cleared' once the product's marker of the move is removed.
   */
  readyStock: 'none' | 'pending' | 'done' | 'cleared';
  /** A step whose bookings are still to be told (see the schema). */
  pendingTell: { what: 'ready' | 'short' | 'failed'; at: string } | null;
}

export type LeanBatch = Batch & {
  _id: Types.ObjectId;
  readyMoved?: number;
  readyStock?: BatchRecord['readyStock'];
};
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toRecord(doc: LeanBatch): BatchRecord {
  return {
    _id: doc._id.toString(),
    productId: doc.productId,
    productName: doc.productName,
    sownOn: doc.sownOn,
    readyOn: doc.readyOn,
    started: doc.started,
    lost: doc.lost ?? 0,
    booked: doc.booked ?? 0,
    available: doc.available ?? 0,
    quantity: doc.quantity ?? 0,
    status: doc.status,
    readyAt: iso(doc.readyAt),
    failedAt: iso(doc.failedAt),
    note: doc.note ?? '',
    createdAt: iso(doc.createdAt)!,
    holds: [...(doc.holds ?? [])]
      .sort((a, b) => +new Date(a.at) - +new Date(b.at))
      .map((h) => ({ orderId: h.orderId, seedlings: h.seedlings, at: iso(h.at)! })),
    readyMoved: doc.readyMoved ?? 0,
    readyStock: doc.readyStock ?? 'none',
    pendingTell: doc.pendingTell
      ? { what: doc.pendingTell.what, at: iso(doc.pendingTell.at)! }
      : null,
  };
}

/** The key of a batch's movements in the stock ledger. */
export const batchLedgerKey = (id: string) => `batch:${id}`;

/**
 * The product's marker of an order's seedlings released from a ready batch into its ready stock:
 * the batch and the order (an order from a quotation may hold ready stock of the product and
 * seedlings on two of its batches, each returned once on its own).
 */
export const releaseKey = (batchId: string, orderId: string) =>
  `${batchLedgerKey(batchId)}:${orderId}`;

/** What is left to book, worked out after the other fields of an update are set. */
export const recomputeAvailable = {
  $set: {
    available: {
      $cond: [
        { $eq: ['$status', 'Growing'] },
        { $max: [0, { $subtract: [{ $subtract: ['$started', '$lost'] }, '$booked'] }] },
        0,
      ],
    },
  },
};

export const PROJECTION = { pendingMovements: 0, releasedFor: 0 } as const;
