import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { PROJECTION, toRecord, type BatchRecord, type LeanBatch } from './batch-record';
import { Batch } from './schemas/batch.schema';

/**
 * The marks a batch's step leaves until its follow-ups are done (its bookings told, its ready
 * seedlings in the product's stock, released bookings' markers), and the sweep's reads of them.
 */
@Injectable()
export class BatchFollowUpsRepository {
  constructor(@InjectModel(Batch.name) private readonly batches: Model<Batch>) {}

  /** Bookings released into ready stock before `before`: `[batch, orderId]` (markers to clear). */
  async releasedBefore(before: Date): Promise<{ batch: BatchRecord; orderId: string }[]> {
    const docs = await this.batches
      .find({ 'releasedFor.at': { $lt: before } })
      .select({ pendingMovements: 0 })
      .limit(200)
      .lean<(LeanBatch & { releasedFor: { orderId: string; at: Date }[] })[]>();
    return docs.flatMap((doc) =>
      doc.releasedFor
        .filter((r) => r.at < before)
        .map((r) => ({ batch: toRecord(doc), orderId: r.orderId })),
    );
  }

  /** Forgets that `orderId`'s seedlings went from this batch into ready stock. */
  async forgetReleased(id: string, orderId: string): Promise<void> {
    await this.batches.updateOne({ _id: id }, { $pull: { releasedFor: { orderId } } });
  }

  /** The ready batch's seedlings reached the product's stock. */
  async markReadyStockDone(id: string): Promise<void> {
    await this.batches.updateOne(
      { _id: id, readyStock: 'pending' },
      { $set: { readyStock: 'done', readyStockAt: new Date() } },
    );
  }

  /** The bookings heard of the batch's step. */
  async told(id: string): Promise<void> {
    await this.batches.updateOne({ _id: id }, { $set: { pendingTell: null } });
  }

  /** Batches whose bookings were still to be told of a step taken before `before` (a crash). */
  async untoldBefore(before: Date): Promise<BatchRecord[]> {
    const docs = await this.batches
      .find({ 'pendingTell.at': { $lt: before } })
      .select(PROJECTION)
      .limit(100)
      .lean<LeanBatch[]>();
    return docs.map(toRecord);
  }

  /** Ready batches whose seedlings reached the product before `before` (markers to clear). */
  async readyStockDoneBefore(before: Date): Promise<BatchRecord[]> {
    const docs = await this.batches
      .find({ readyStock: 'done', readyStockAt: { $lt: before } })
      .select(PROJECTION)
      .limit(200)
      .lean<LeanBatch[]>();
    return docs.map(toRecord);
  }

  async markReadyStockCleared(id: string): Promise<void> {
    await this.batches.updateOne(
      { _id: id, readyStock: 'done' },
      { $set: { readyStock: 'cleared' } },
    );
  }

  /** Ready batches whose seedlings may not have reached the product (a crash between the two). */
  async readyStockPending(): Promise<BatchRecord[]> {
    const docs = await this.batches
      .find({ readyStock: 'pending' })
      .select(PROJECTION)
      .limit(500)
      .lean<LeanBatch[]>();
    return docs.map(toRecord);
  }
}
