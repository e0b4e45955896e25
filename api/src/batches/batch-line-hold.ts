import { ConflictException, Injectable } from '@nestjs/common';
import type { HeldOrder, HeldPart, LineHold, OrderHold } from '../common/order-hold';
import type { Actor } from '../common/principal';
import { BatchHold } from './batch-hold';
import { BatchesService } from './batches.service';

/** The batch of a hold on a batch. */
const batchOf = (hold: LineHold): string => {
  if (hold.on !== 'batch') throw new Error('A batch line hold is given a hold on ready stock');
  return hold.batchId;
};

/**
 * Lines of an order that is not a booking held on a growing batch (an order from a quotation,
 * whose lines each name their hold): no deposit and no booking states; the seedlings stay held on
 * the batch until the order is sent out, which waits until the batch is ready. The batch's side
 * (held, given back, handed over) is `BatchHold`'s, as for a booking.
 */
@Injectable()
export class BatchLineHold implements OrderHold {
  constructor(
    private readonly batchHold: BatchHold,
    private readonly batches: BatchesService,
  ) {}

  releaseAll(order: HeldOrder, hold: LineHold): Promise<void> {
    return this.batchHold.release(order, batchOf(hold));
  }

  giveBack(order: HeldOrder, hold: LineHold, by: Actor | null): Promise<void> {
    return this.batchHold.release(order, batchOf(hold), by);
  }

  /** Nothing was reserved on a product: the hold stays on the batch until hand-over. */
  productsToSettle(): string[] {
    return [];
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }

  dispatchGuard(): Record<string, unknown> {
    return {};
  }

  /** Sent out only once the batch is ready (409 otherwise, with the date it is expected). */
  async checkDispatch(order: HeldOrder, hold: LineHold): Promise<void> {
    const batch = await this.batches.get(batchOf(hold));
    if (batch.status === 'Ready') return;
    if (batch.status === 'Failed')
      throw new ConflictException({
        message: `Order ${order.purchaseNumber} holds seedlings of ${batch.productName} on a batch that failed: cancel the order, or place its seedlings again from stock or another batch`,
        code: 'BATCH_FAILED',
      });
    throw new ConflictException({
      message: `Order ${order.purchaseNumber} holds seedlings of ${batch.productName} on a batch that is not ready yet (expected ${batch.readyOn}): it goes out once every batch it holds is ready`,
      code: 'ILLEGAL_TRANSITION',
    });
  }

  handOver(order: HeldOrder, hold: LineHold, by: Actor | null): Promise<number> {
    return this.batchHold.handOver(order, batchOf(hold), by);
  }

  /** A tranche sent out: its seedlings leave the batch as a sale, once per key. */
  handOverPart(order: HeldOrder, hold: LineHold, part: HeldPart, by: Actor | null) {
    return this.batchHold.handOverPart(
      order,
      batchOf(hold),
      part.seedlings,
      part.key,
      by,
      part.note,
    );
  }

  /** A tranche's seedlings that came back: into the batch and the order's hold, once per key. */
  bringBackPart(order: HeldOrder, hold: LineHold, part: HeldPart, by: Actor | null) {
    return this.batchHold.bringBackPart(
      order,
      batchOf(hold),
      part.seedlings,
      part.key,
      by,
      part.note,
    );
  }
}
