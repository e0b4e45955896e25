import { Types } from 'mongoose';
import type { StockReason } from '@spc/shared-contracts';
import type { Principal } from '../common/principal';
import type { MovementActor } from './schemas/stock-movement.schema';

/** What a stock change records beside the quantity: why, who, and the order where there is one. */
export interface MovementMeta {
  reason: StockReason;
  by?: Principal | MovementActor | null;
  note?: string;
  orderId?: string | null;
  purchaseNumber?: string | null;
}

/** A movement as it waits inside its product document until it is copied to the ledger. */
export interface PendingMovement {
  _id: string;
  seq: number;
  reason: StockReason;
  change: number;
  quantityAfter: number;
  note: string;
  by: MovementActor | null;
  orderId: string | null;
  purchaseNumber: string | null;
  at: Date;
  /** It took the stock below zero (a gate sale's hand-over, never refused: issue 47). */
  short?: boolean;
}

/** How the stock changes: by a signed amount, or to an amount (the change follows from the stock). */
export type StockChange = { by: number } | { to: number };

const literal = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { $literal: value }]));

const pending = { $ifNull: ['$pendingMovements', []] };

/**
 * The update (an aggregation pipeline, applied by the database to one document atomically) that
 * changes a product's stock AND appends the movement describing it to the product's
 * `pendingMovements`, numbered after the product's last one and carrying the quantity after it.
 * Stock and ledger can therefore never disagree: both are in one document write, and the copy to
 * `stock_movements` that follows is idempotent (keyed by the movement's `_id`). A change of 0 writes
 * no movement. `set` are plain values written too (texts stay literal, even when they begin with $);
 * `computed` are expressions evaluated on the document after the change.
 */
export function stockUpdate(
  change: StockChange,
  meta: MovementMeta,
  extra: {
    id?: string;
    set?: Record<string, unknown>;
    computed?: Record<string, unknown>;
    at?: Date;
    /** The document's field the stock is in: a product's `productQuantity`, a batch's `quantity`. */
    field?: string;
    /**
     * The change may take the stock below zero (a gate sale, issue 47): its movement is then
     * marked `short` and the product flagged `stockShort` until its stock is counted again.
     */
    shortable?: boolean;
  } = {},
): { pipeline: Record<string, unknown>[]; movementId: string } {
  const field = extra.field ?? 'productQuantity';
  const quantity = { $ifNull: [`$${field}`, 0] };
  const movementId = extra.id ?? new Types.ObjectId().toHexString();
  const at = extra.at ?? new Date();
  const delta = 'by' in change ? change.by : { $subtract: [change.to, quantity] };
  const unchanged = { $eq: ['$__change', 0] };
  const movement = {
    ...literal({
      _id: movementId,
      reason: meta.reason,
      note: meta.note ?? '',
      by: actorOf(meta.by),
      orderId: meta.orderId ?? null,
      purchaseNumber: meta.purchaseNumber ?? null,
      at,
    }),
    seq: '$stockSeq',
    change: '$__change',
    quantityAfter: `$${field}`,
    ...(extra.shortable ? { short: { $lt: [`$${field}`, 0] } } : {}),
  };
  const after = { $add: [quantity, '$__change'] };
  // A count or a stock set (`to`) is the stock as it is: a product flagged short is clear again.
  const shortFlag =
    field !== 'productQuantity'
      ? {}
      : extra.shortable
        ? { stockShort: { $or: [{ $eq: ['$stockShort', true] }, { $lt: [after, 0] }] } }
        : 'to' in change
          ? { stockShort: { $literal: false } }
          : {};
  return {
    movementId,
    pipeline: [
      { $set: { __change: delta } },
      {
        $set: {
          [field]: after,
          ...shortFlag,
          stockSeq: {
            $cond: [
              unchanged,
              { $ifNull: ['$stockSeq', 0] },
              { $add: [{ $ifNull: ['$stockSeq', 0] }, 1] },
            ],
          },
          updatedAt: { $literal: at },
          ...literal(extra.set ?? {}),
          ...(extra.computed ?? {}),
        },
      },
      {
        $set: {
          pendingMovements: {
            $cond: [unchanged, pending, { $concatArrays: [pending, [movement]] }],
          },
        },
      },
      { $unset: '__change' },
    ],
  };
}

/** A product's opening balance as it is written with the product (its first movement). */
export function openingBalance(quantity: number, by: MovementMeta['by'], at: Date, note: string) {
  return {
    stockSeq: 1,
    ledgerSince: at,
    pendingMovements: [
      {
        _id: new Types.ObjectId().toHexString(),
        seq: 1,
        reason: 'opening',
        change: quantity,
        quantityAfter: quantity,
        note,
        by: actorOf(by),
        orderId: null,
        purchaseNumber: null,
        at,
      } satisfies PendingMovement,
    ],
  };
}

/** The pipeline that gives a product without a ledger its opening balance: its stock as it is. */
export function openingUpdate(at: Date): Record<string, unknown>[] {
  const quantity = { $ifNull: ['$productQuantity', 0] };
  return [
    {
      $set: {
        ledgerSince: { $literal: at },
        stockSeq: { $add: [{ $ifNull: ['$stockSeq', 0] }, 1] },
      },
    },
    {
      $set: {
        pendingMovements: {
          $concatArrays: [
            pending,
            [
              {
                _id: { $concat: ['opening-', { $toString: '$_id' }] },
                seq: '$stockSeq',
                reason: 'opening',
                change: quantity,
                quantityAfter: quantity,
                note: 'Stock when the ledger began',
                by: null,
                orderId: null,
                purchaseNumber: null,
                at: { $literal: at },
              },
            ],
          ],
        },
      },
    },
  ];
}

export function actorOf(by: MovementMeta['by']): MovementActor | null {
  return by ? { id: by.id, fullName: by.fullName, role: by.role } : null;
}

/** What shoppers may buy of a product: 0 while flagged short or below zero (issue 47). */
export function shownQuantity(doc: { productQuantity?: number; stockShort?: boolean }): number {
  return doc.stockShort ? 0 : Math.max(0, doc.productQuantity ?? 0);
}
