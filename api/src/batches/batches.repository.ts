import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { StockMovement } from '../inventory/schemas/stock-movement.schema';
import {
  actorOf,
  stockUpdate,
  type MovementMeta,
  type PendingMovement,
} from '../inventory/stock-ledger';
import {
  PROJECTION,
  recomputeAvailable,
  toRecord,
  batchLedgerKey,
  type BatchRecord,
  type LeanBatch,
} from './batch-record';
import { Batch } from './schemas/batch.schema';

export { batchLedgerKey, type BatchRecord } from './batch-record';

/** Why a hold was refused, for the placement's message. */
export type HoldRefusal = 'gone' | 'failed' | 'ready' | 'short';

/** `holds` with `orderId`'s hold changed by `seedlings` (less than 0 takes), as an expression. */
const holdsMovedBy = (orderId: string, seedlings: number) => ({
  $map: {
    input: '$holds',
    in: {
      $cond: [
        { $eq: ['$$this.orderId', { $literal: orderId }] },
        {
          orderId: '$$this.orderId',
          seedlings: { $add: ['$$this.seedlings', seedlings] },
          at: '$$this.at',
        },
        '$$this',
      ],
    },
  },
});

/**
 * The only place that touches the `batches` collection. Every change of what a batch holds is one
 * atomic update that also appends its stock movement (copied then to `stock_movements` under
 * `batch:<id>`, as the products' are); every hold of a booking is one conditional update on what is
 * left to book, recorded with the order's id so a retry counts once.
 */
@Injectable()
export class BatchesRepository {
  constructor(
    @InjectModel(Batch.name) private readonly batches: Model<Batch>,
    @InjectModel(StockMovement.name) private readonly movements: Model<StockMovement>,
  ) {}

  /** A new growing batch with its first movement (`sown`, +started). */
  async insert(
    batch: Pick<Batch, 'productId' | 'productName' | 'sownOn' | 'readyOn' | 'started' | 'note'>,
    by: MovementMeta['by'],
  ): Promise<BatchRecord> {
    const _id = new Types.ObjectId();
    const at = new Date();
    const sown: PendingMovement = {
      _id: new Types.ObjectId().toHexString(),
      seq: 1,
      reason: 'sown',
      change: batch.started,
      quantityAfter: batch.started,
      note: batch.note || `Sown on ${batch.sownOn}, ready on ${batch.readyOn}`,
      by: actorOf(by),
      orderId: null,
      purchaseNumber: null,
      at,
    };
    await this.batches.collection.insertOne({
      _id,
      ...batch,
      lost: 0,
      booked: 0,
      available: batch.started,
      quantity: batch.started,
      status: 'Growing',
      readyAt: null,
      failedAt: null,
      holds: [],
      releasedFor: [],
      readyMoved: 0,
      readyStock: 'none',
      stockSeq: 1,
      pendingMovements: [sown],
      createdAt: at,
    });
    await this.copyMovements(_id.toHexString(), batch.productName, [sown]);
    return (await this.findById(_id.toHexString()))!;
  }

  async findById(id: string): Promise<BatchRecord | null> {
    if (!Types.ObjectId.isValid(id)) return null;
    const doc = await this.batches.findById(id).select(PROJECTION).lean<LeanBatch>();
    return doc ? toRecord(doc) : null;
  }

  async findByIds(ids: string[]): Promise<BatchRecord[]> {
    const docs = await this.batches
      .find({ _id: { $in: ids.filter((id) => Types.ObjectId.isValid(id)) } })
      .select(PROJECTION)
      .lean<LeanBatch[]>();
    return docs.map(toRecord);
  }

  /** A growing batch's ready date or note changed; null when it is not growing (or gone). */
  async updateGrowing(
    id: string,
    changes: { readyOn?: string; note?: string },
  ): Promise<BatchRecord | null> {
    const doc = await this.batches
      .findOneAndUpdate(
        {
          _id: id,
          status: 'Growing',
          // A ready date is never before the sowing date, whatever runs beside it.
          ...(changes.readyOn ? { sownOn: { $lte: changes.readyOn } } : {}),
        },
        { $set: changes },
        { new: true, projection: PROJECTION },
      )
      .lean<LeanBatch>();
    return doc ? toRecord(doc) : null;
  }

  /**
   * Holds `seedlings` of a growing batch ready after `today` for a booking order, in one
   * conditional update on what is left to book; true also when the order already holds them (a
   * retry). Otherwise why not.
   */
  async hold(
    id: string,
    orderId: string,
    seedlings: number,
    today: string,
  ): Promise<true | HoldRefusal> {
    if (!Types.ObjectId.isValid(id)) return 'gone';
    const res = await this.batches.updateOne(
      {
        _id: id,
        status: 'Growing',
        readyOn: { $gt: today },
        available: { $gte: seedlings },
        'holds.orderId': { $ne: orderId },
      },
      {
        $inc: { available: -seedlings, booked: seedlings },
        $push: { holds: { orderId, seedlings, at: new Date() } },
      },
    );
    if (res.modifiedCount === 1) return true;
    const doc = await this.batches
      .findById(id)
      .select({ status: 1, readyOn: 1, holds: { $elemMatch: { orderId } } })
      .lean<Pick<Batch, 'status' | 'readyOn' | 'holds'>>();
    if (!doc) return 'gone';
    if (doc.holds?.some((h) => h.orderId === orderId && h.seedlings === seedlings)) return true;
    if (doc.status === 'Failed') return 'failed';
    if (doc.status === 'Ready' || doc.readyOn <= today) return 'ready';
    return 'short';
  }

  /** The seedlings `orderId` holds here (0 when none). */
  async heldBy(id: string, orderId: string): Promise<number> {
    if (!Types.ObjectId.isValid(id)) return 0;
    const doc = await this.batches
      .findById(id)
      .select({ holds: { $elemMatch: { orderId } } })
      .lean<Pick<Batch, 'holds'>>();
    return doc?.holds?.[0]?.seedlings ?? 0;
  }

  /**
   * Drops `orderId`'s hold, no movement: its seedlings stay in the batch (growing: bookable again;
   * failed: already lost). Conditional on the hold, so two callers release it once. Answers the
   * seedlings released (0 when none was held).
   */
  async releaseHold(id: string, orderId: string): Promise<number> {
    const seedlings = await this.heldBy(id, orderId);
    if (!seedlings) return 0;
    const res = await this.batches.collection.updateOne(
      {
        _id: new Types.ObjectId(id),
        status: { $in: ['Growing', 'Failed'] },
        holds: { $elemMatch: { orderId, seedlings } },
      },
      [
        {
          $set: {
            booked: { $subtract: ['$booked', seedlings] },
            holds: {
              $filter: {
                input: '$holds',
                cond: { $ne: ['$$this.orderId', { $literal: orderId }] },
              },
            },
          },
        },
        recomputeAvailable,
      ],
    );
    return res.modifiedCount === 1 ? seedlings : 0;
  }

  /**
   * Takes `orderId`'s held seedlings out of a ready batch with their movement (`reason`: a sale
   * when the booking is dispatched, `batch-ready` when they go into the product's ready stock after
   * a release or a cancellation), in one update conditional on the hold. Answers the seedlings.
   */
  async takeHeld(
    id: string,
    orderId: string,
    meta: MovementMeta,
    options: { markReleased?: boolean } = {},
  ): Promise<number> {
    const seedlings = await this.heldBy(id, orderId);
    if (!seedlings) return 0;
    const doc = await this.changeQuantity(
      {
        _id: new Types.ObjectId(id),
        status: 'Ready',
        holds: { $elemMatch: { orderId, seedlings } },
      },
      -seedlings,
      { ...meta, orderId },
      {
        booked: { $subtract: ['$booked', seedlings] },
        holds: {
          $filter: { input: '$holds', cond: { $ne: ['$$this.orderId', { $literal: orderId }] } },
        },
        ...(options.markReleased
          ? {
              releasedFor: {
                $concatArrays: [
                  { $ifNull: ['$releasedFor', []] },
                  [{ $literal: { orderId, at: new Date() } }],
                ],
              },
            }
          : {}),
      },
    );
    return doc ? seedlings : 0;
  }

  /**
   * Takes `seedlings` of `orderId`'s hold out of a ready batch with their movement (a sale: a part
   * of the order sent out, a tranche), once per `key` (recorded on the batch in the same update:
   * a retry or a second caller takes nothing). The hold keeps the rest (it goes when it reaches
   * 0). Answers the seedlings taken (0 when already taken for this key, or the hold is short).
   */
  async takeHeldPart(
    id: string,
    orderId: string,
    seedlings: number,
    key: string,
    meta: MovementMeta,
  ): Promise<number> {
    if (!Types.ObjectId.isValid(id) || seedlings <= 0) return 0;
    const doc = await this.changeQuantity(
      {
        _id: new Types.ObjectId(id),
        status: 'Ready',
        holds: { $elemMatch: { orderId, seedlings: { $gte: seedlings } } },
        'partsMoved.key': { $ne: key },
      },
      -seedlings,
      { ...meta, orderId },
      {
        booked: { $subtract: ['$booked', seedlings] },
        holds: {
          $filter: {
            input: holdsMovedBy(orderId, -seedlings),
            cond: { $gt: ['$$this.seedlings', 0] },
          },
        },
        partsMoved: partMoved(key),
      },
    );
    return doc ? seedlings : 0;
  }

  /**
   * Puts `seedlings` back into a ready batch and into `orderId`'s hold there, with their movement
   * (a return: part of a load that came back undelivered, to go again), once per `key`. Answers
   * the seedlings put back (0 when already put back for this key).
   */
  async returnHeldPart(
    id: string,
    orderId: string,
    seedlings: number,
    key: string,
    meta: MovementMeta,
  ): Promise<number> {
    if (!Types.ObjectId.isValid(id) || seedlings <= 0) return 0;
    const mine = { $eq: ['$$this.orderId', { $literal: orderId }] };
    const has = {
      $gt: [{ $size: { $filter: { input: { $ifNull: ['$holds', []] }, cond: mine } } }, 0],
    };
    const doc = await this.changeQuantity(
      { _id: new Types.ObjectId(id), status: 'Ready', 'partsMoved.key': { $ne: key } },
      seedlings,
      { ...meta, orderId },
      {
        booked: { $add: ['$booked', seedlings] },
        holds: {
          $cond: [
            has,
            holdsMovedBy(orderId, seedlings),
            {
              $concatArrays: [
                { $ifNull: ['$holds', []] },
                [{ orderId: { $literal: orderId }, seedlings, at: { $literal: new Date() } }],
              ],
            },
          ],
        },
        partsMoved: partMoved(key),
      },
    );
    return doc ? seedlings : 0;
  }

  /**
   * A loss of a growing batch (never below 0): what it holds and what is left to book go down,
   * with its movement. Null when the batch is not growing or holds fewer.
   */
  async recordLoss(id: string, quantity: number, meta: MovementMeta): Promise<BatchRecord | null> {
    return this.changeQuantity(
      { _id: new Types.ObjectId(id), status: 'Growing', quantity: { $gte: quantity } },
      -quantity,
      meta,
      {
        lost: { $add: ['$lost', quantity] },
        // Short of what is booked: the bookings are to be told (in this same update).
        pendingTell: {
          $cond: [
            { $lt: [{ $subtract: ['$started', { $add: ['$lost', quantity] }] }, '$booked'] },
            { $literal: { what: 'short', at: new Date() } },
            { $ifNull: ['$pendingTell', null] },
          ],
        },
      },
    );
  }

  /**
   * Growing becomes Ready, once: what no booking holds leaves the batch (`batch-ready`, recorded
   * as `readyMoved`, `readyStock` pending until the product has it). Null when not growing.
   */
  async markReady(id: string, meta: MovementMeta): Promise<BatchRecord | null> {
    const free = { $max: [0, { $subtract: ['$quantity', '$booked'] }] };
    return this.changeQuantity(
      { _id: new Types.ObjectId(id), status: 'Growing' },
      { $multiply: [-1, free] },
      meta,
      {
        status: { $literal: 'Ready' },
        readyAt: { $literal: new Date() },
        readyMoved: free,
        readyStock: { $literal: 'pending' },
        pendingTell: { $literal: { what: 'ready', at: new Date() } },
      },
    );
  }

  /** Growing becomes Failed, once: everything it holds is lost. Null when not growing. */
  async markFailed(id: string, note: string, meta: MovementMeta): Promise<BatchRecord | null> {
    return this.changeQuantity(
      { _id: new Types.ObjectId(id), status: 'Growing' },
      { $multiply: [-1, { $max: [0, '$quantity'] }] },
      meta,
      {
        status: { $literal: 'Failed' },
        failedAt: { $literal: new Date() },
        pendingTell: { $literal: { what: 'failed', at: new Date() } },
        ...(note ? { note: { $literal: note } } : {}),
      },
    );
  }

  /**
   * Copies to the ledger the movements waiting in batch documents older than `before`: what a
   * crash between a batch's change and its copy left.
   */
  async flushPending(before: Date): Promise<number> {
    const docs = await this.batches.collection
      .find(
        { 'pendingMovements.at': { $lt: before } },
        { projection: { productName: 1, pendingMovements: 1 } },
      )
      .limit(500)
      .toArray();
    let copied = 0;
    for (const doc of docs) {
      const entries = ((doc.pendingMovements ?? []) as PendingMovement[]).filter(
        (m) => m.at < before,
      );
      await this.copyMovements(doc._id.toString(), doc.productName as string, entries);
      copied += entries.length;
    }
    return copied;
  }

  /**
   * One change of what a batch holds, with its movement, in one atomic update (`set`: expressions
   * on the batch before the change), then the movement's copy to the ledger.
   */
  private async changeQuantity(
    filter: Record<string, unknown>,
    by: number | Record<string, unknown>,
    meta: MovementMeta,
    set: Record<string, unknown>,
  ): Promise<BatchRecord | null> {
    const { pipeline, movementId } = stockUpdate({ by } as { by: number }, meta, {
      field: 'quantity',
      computed: set,
    });
    const doc = (await this.batches.collection.findOneAndUpdate(
      filter,
      [...pipeline, recomputeAvailable],
      { returnDocument: 'after' },
    )) as unknown as (LeanBatch & { pendingMovements?: PendingMovement[] }) | null;
    if (!doc) return null;
    await this.copyMovements(
      doc._id.toHexString(),
      doc.productName,
      (doc.pendingMovements ?? []).filter((m) => m._id === movementId),
    );
    return toRecord(doc);
  }

  /** Copies movements to the ledger under their own ids (once), then removes them from the batch. */
  private async copyMovements(
    id: string,
    productName: string,
    entries: PendingMovement[],
  ): Promise<void> {
    if (!entries.length) return;
    for (const entry of entries) {
      try {
        await this.movements.collection.insertOne({
          ...entry,
          productId: batchLedgerKey(id),
          productName,
        } as never);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    await this.batches.collection.updateOne({ _id: new Types.ObjectId(id) }, {
      $pull: { pendingMovements: { _id: { $in: entries.map((m) => m._id) } } },
    } as never);
  }
}

/** The batch's record of a part of a hold moved (`takeHeldPart`, `returnHeldPart`): once per key. */
const partMoved = (key: string) => ({
  $concatArrays: [
    { $ifNull: ['$partsMoved', []] },
    [{ key: { $literal: key }, at: { $literal: new Date() } }],
  ],
});
