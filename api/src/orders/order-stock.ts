import { Injectable } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

/** An order's stock on its products: given back, released or settled, each once per line. */
@Injectable()
export class OrderStock {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogService,
  ) {}

  /** Returns a cancelled order's stock, once per line even if called again after a crash. */
  async returnStock(order: OrderRecord): Promise<void> {
    // At 'done' every line is back and some markers may already be cleared: restocking again would
    // return those lines a second time (the restock marker is what makes a restock count once).
    if (order.stockReturn !== 'done') {
      for (const line of order.products)
        await this.catalog.restock(line.product._id, order._id, line.quantity, {
          purchaseNumber: order.purchaseNumber,
          note: `Order ${order.purchaseNumber} cancelled: its stock came back`,
        });
      await this.orders.setFlags(order._id, { stockReturn: 'done' });
    }
    for (const line of order.products)
      await this.catalog.clearRestockMarker(line.product._id, order._id);
    await this.orders.setFlags(order._id, { stockReturn: 'cleared' });
  }

  /** Releases every line's reservation (a line never reserved is left as it is). */
  async releaseAll(order: OrderRecord): Promise<void> {
    for (const line of order.products)
      await this.catalog.releaseReservation(line.product._id, order._id, order);
  }

  /** Turns the reservations of a placed order into sales on the ledger. */
  async settle(order: OrderRecord, reservedHere = false): Promise<void> {
    for (const line of order.products)
      await this.catalog.settleReservation(line.product._id, order._id, reservedHere);
    await this.orders.setFlags(order._id, { ledgerSettled: true });
  }
}
