import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal';
import { InventoryService } from '../inventory/inventory.service';
import { BatchFollowUpsRepository } from './batch-follow-ups.repository';
import { batchLedgerKey, releaseKey, type BatchRecord } from './batch-record';
import { BatchesRepository } from './batches.repository';

/**
 * What a batch's step leaves to finish, each once however often it runs: its movements copied to
 * the ledger, its ready seedlings moved into the product's stock, the products' markers of moves
 * from batches cleared a day after them (a marker is what makes a move count once, so it stays
 * while a retry could still come), and its bookings' notice marked told.
 */
@Injectable()
export class BatchFollowUps {
  constructor(
    private readonly batches: BatchesRepository,
    private readonly marks: BatchFollowUpsRepository,
    private readonly inventory: InventoryService,
  ) {}

  /** Finishes what a crash left: movements not yet copied, ready seedlings not yet moved. */
  async finish(): Promise<void> {
    await this.batches.flushPending(new Date(Date.now() - 5000));
    for (const batch of await this.marks.readyStockPending())
      await this.moveReadyStock(batch, null);
    const dayAgo = new Date(Date.now() - 86_400_000);
    for (const batch of await this.marks.readyStockDoneBefore(dayAgo)) {
      await this.inventory.clearRestockMarker(batch.productId, batchLedgerKey(batch._id));
      await this.marks.markReadyStockCleared(batch._id);
    }
    for (const { batch, orderId } of await this.marks.releasedBefore(dayAgo)) {
      await this.inventory.clearRestockMarker(batch.productId, releaseKey(batch._id, orderId));
      await this.marks.forgetReleased(batch._id, orderId);
    }
  }

  /** The bookings heard of the batch's last step (ready, short, failed). */
  told(batchId: string): Promise<void> {
    return this.marks.told(batchId);
  }

  /** Batches whose bookings were still to be told of a step taken before `before` (a crash). */
  untoldBefore(before: Date): Promise<BatchRecord[]> {
    return this.marks.untoldBefore(before);
  }

  /** The ready batch's free seedlings into the product's stock, once (marked with the batch). */
  async moveReadyStock(batch: BatchRecord, by: Principal | null): Promise<void> {
    const key = batchLedgerKey(batch._id);
    if (batch.readyMoved > 0)
      await this.inventory.receiveFromBatch(batch.productId, key, batch.readyMoved, {
        by,
        note: `Batch sown on ${batch.sownOn} ready: ${batch.readyMoved} seedlings into ready stock`,
      });
    await this.marks.markReadyStockDone(batch._id);
  }
}
