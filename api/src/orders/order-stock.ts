import { Injectable } from '@nestjs/common';
import { BatchesService } from '../batches/batches.service';
import type { Actor, Principal } from '../common/principal';
import { InventoryService } from '../inventory/inventory.service';
import { seedlingsByProduct } from './order-lines';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

/**
 * An order's stock on its products: given back, released or settled, each once per line. A
 * booking's seedlings are held against its batch instead: given back to the batch (into ready
 * stock once the batch is ready), once.
 */
@Injectable()
export class OrderStock {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly inventory: InventoryService,
    private readonly batches: BatchesService,
  ) {}

  /**
   * Returns a cancelled order's stock, once per line even if called again after a crash. `by`: who
   * cancelled it, credited with the return in the stock ledger (none for the shop itself).
   */
  async returnStock(order: OrderRecord, by?: Actor | null): Promise<void> {
    if (order.booking) return this.returnBooking(order, by);
    // At 'done' every line is back and some markers may already be cleared: restocking again would
    // return those lines a second time (the restock marker is what makes a restock count once).
    if (order.stockReturn !== 'done') {
      for (const [productId, seedlings] of seedlingsOf(order))
        await this.inventory.restock(productId, order._id, seedlings, {
          purchaseNumber: order.purchaseNumber,
          by: isPerson(by) ? by : null,
          note: `Order ${order.purchaseNumber} cancelled: its stock came back`,
        });
      await this.orders.setFlags(order._id, { stockReturn: 'done' });
    }
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.clearRestockMarker(productId, order._id);
    await this.orders.setFlags(order._id, { stockReturn: 'cleared' });
  }

  /**
   * A cancelled (or expired) booking's seedlings back to its batch, once however often it is
   * called: bookable again while the batch grows, into ready stock once it is ready.
   */
  private async returnBooking(order: OrderRecord, by?: Actor | null): Promise<void> {
    await this.batches.release(order.booking!.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: isPerson(by) ? by : null,
    });
    await this.orders.setFlags(order._id, { stockReturn: 'cleared' });
  }

  /**
   * A paid booking handed over (dispatched): its seedlings leave the batch as a sale, once (the
   * batch's hold is taken once; a call after that takes nothing).
   */
  async fulfilBooking(order: OrderRecord, by?: Actor | null): Promise<number> {
    if (!order.booking) return 0;
    return this.batches.fulfil(order.booking.batchId, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: isPerson(by) ? by : null,
    });
  }

  /** Releases every line's reservation (a line never reserved is left as it is). */
  async releaseAll(order: OrderRecord): Promise<void> {
    if (order.booking) {
      await this.batches.release(order.booking.batchId, order._id, {
        purchaseNumber: order.purchaseNumber,
      });
      return;
    }
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.releaseReservation(productId, order._id, order);
  }

  /** Turns the reservations of a placed order into sales on the ledger. */
  async settle(order: OrderRecord, reservedHere = false): Promise<void> {
    // A booking's hold stays on its batch until it is handed over, released or refunded.
    if (order.booking) return this.orders.setFlags(order._id, { ledgerSettled: true });
    for (const productId of seedlingsOf(order).keys())
      await this.inventory.settleReservation(productId, order._id, reservedHere);
    await this.orders.setFlags(order._id, { ledgerSettled: true });
  }
}

/** The seedlings the order took from each product (its lines of one product added up). */
function seedlingsOf(order: OrderRecord): Map<string, number> {
  return seedlingsByProduct(
    order.products.map((l) => ({
      productId: l.product._id,
      quantity: l.quantity,
      seedlings: l.unit?.seedlings ?? 1,
    })),
  );
}

/** A person who acted (credited in the stock ledger), not the shop itself. */
function isPerson(actor: Actor | null | undefined): actor is Principal {
  return !!actor && actor.role !== 'system';
}
