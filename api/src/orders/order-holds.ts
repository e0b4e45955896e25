import { Injectable } from '@nestjs/common';
import { BatchHold } from '../batches/batch-hold';
import { BatchLineHold } from '../batches/batch-line-hold';
import { BookingHold } from '../bookings/booking-hold';
import { holdKey, type HeldPart, type LineHold, type OrderHold } from '../common/order-hold';
import type { Actor, Principal } from '../common/principal';
import { ReadyStockHold } from '../inventory/ready-stock-hold';
import type { StockMovementView } from '../inventory/stock-ledger.repository';
import type { PricedLine } from './order-lines';
import type { OrderRecord } from './order.types';

/** Ready stock, the hold of every line that names no batch. */
export const READY_STOCK: LineHold = { on: 'stock' };

/**
 * What holds each line of a cart, as the line says: the batch it names, or ready stock. Answers
 * the hold of a priced line (lines of one product are one hold: a batch grows one product).
 */
export function holdsOfCart(
  items: { _id: string; batchId?: string }[],
): (line: Pick<PricedLine, 'productId'>) => LineHold {
  const batchOf = new Map(items.map((i) => [i._id.toLowerCase(), i.batchId?.toLowerCase()]));
  return (line) => {
    const batchId = batchOf.get(line.productId.toLowerCase());
    return batchId ? { on: 'batch', batchId } : READY_STOCK;
  };
}

/** A priced line with what holds it, chosen per line at placement. */
export type LineToPlace = PricedLine & { hold: LineHold };

/** The lines of an order one hold keeps: the order with only those lines, the hold, its strategy. */
interface HoldGroup {
  order: OrderRecord;
  hold: LineHold;
  by: OrderHold<OrderRecord>;
}

/**
 * An order's lines grouped by what holds them (ready stock, a batch), each group asked of its own
 * strategy: held at placement, released, given back, settled, checked and handed over per group.
 * An order of ready stock only is one group, a booking on one batch another; an order may mix
 * them (an institution's ready stock and two batches).
 */
@Injectable()
export class OrderHolds {
  constructor(
    private readonly readyStock: ReadyStockHold,
    private readonly batchHold: BatchHold,
    private readonly bookingHold: BookingHold,
    private readonly batchLineHold: BatchLineHold,
  ) {}

  /**
   * Placement's hold of each line by its own hold, group after group; a group refused gives back
   * what the groups before it took (its own strategy gives back its part) and the refusal stands.
   * Answers the sale movements of the lines on ready stock, copied to the ledger at settling.
   */
  async hold(
    order: OrderRecord,
    lines: LineToPlace[],
    actor?: Principal,
  ): Promise<StockMovementView[]> {
    const movements: StockMovementView[] = [];
    const held: HoldGroup[] = [];
    // The order's stored lines are the priced lines, in their order.
    const paired = lines.map((line, i) => ({ line, stored: order.products[i]! }));
    for (const [hold, group] of groupBy(paired, (p) => p.line.hold)) {
      const toHold = group.map((p) => p.line);
      try {
        if (hold.on === 'batch') await this.batchHold.hold(order, hold.batchId, toHold);
        // A gate sale is a hand-over: never refused for stock (issue 47).
        else
          movements.push(
            ...(await this.readyStock.hold(order, toHold, actor, order.channel === 'gate')),
          );
      } catch (error) {
        for (const g of held) await g.by.releaseAll(g.order, g.hold);
        throw error;
      }
      const only = { ...order, products: group.map((p) => p.stored) };
      held.push({ order: only, hold, by: this.strategy(hold, order) });
    }
    return movements;
  }

  /** Every line's hold released (a line never held is left as it is). */
  async releaseAll(order: OrderRecord): Promise<void> {
    for (const g of this.groups(order)) await g.by.releaseAll(g.order, g.hold);
  }

  /**
   * A cancelled order's lines given back, once per line however often called: at `done` every
   * line is back (`returned` recorded it) and only markers are left to clear.
   */
  async giveBack(order: OrderRecord, by: Actor | null, returned: () => Promise<void>) {
    const groups = this.groups(order);
    const marked = groups.filter((g) => g.by.clearReturnMarkers);
    if (order.stockReturn !== 'done') {
      for (const g of groups) await g.by.giveBack(g.order, g.hold, by);
      if (marked.length) await returned();
    }
    for (const g of marked) await g.by.clearReturnMarkers!(g.order, g.hold);
  }

  /** The products whose reservations a placement's settle turns into sales. */
  productsToSettle(order: OrderRecord): string[] {
    return this.groups(order).flatMap((g) => g.by.productsToSettle(g.order, g.hold));
  }

  /** The order's reservations made sales (a batch's hold stays until hand-over). */
  async settle(order: OrderRecord, reservedHere: boolean): Promise<void> {
    for (const g of this.groups(order)) await g.by.settle(g.order, g.hold, reservedHere);
  }

  /** The conditions every group puts on the order when it is sent out. */
  dispatchGuard(order: OrderRecord): Record<string, unknown> {
    return Object.assign({}, ...this.groups(order).map((g) => g.by.dispatchGuard(g.order, g.hold)));
  }

  /** Refuses (4xx) sending the order out while a group's lines may not go yet. */
  async checkDispatch(order: OrderRecord): Promise<void> {
    for (const g of this.groups(order)) await g.by.checkDispatch(g.order, g.hold);
  }

  /** Handed over: what each group still holds leaves as a sale, once. Answers how many seedlings. */
  async handOver(order: OrderRecord, by: Actor | null): Promise<number> {
    let seedlings = 0;
    for (const g of this.groups(order)) seedlings += await g.by.handOver(g.order, g.hold, by);
    return seedlings;
  }

  /**
   * Part of the seedlings one hold keeps for the order handed over (a tranche sent out), once per
   * `part.key`. Answers the seedlings moved on the ledger (0 on ready stock: sold at placement).
   */
  handOverPart(order: OrderRecord, hold: LineHold, part: HeldPart, by: Actor | null) {
    const strategy = this.strategy(hold, order);
    if (!strategy.handOverPart) throw new Error(`${holdKey(hold)} is not sent out in parts`);
    return strategy.handOverPart(order, hold, part, by);
  }

  /** Seedlings of a tranche that came back undelivered, held for the order again (once per key). */
  bringBackPart(order: OrderRecord, hold: LineHold, part: HeldPart, by: Actor | null) {
    const strategy = this.strategy(hold, order);
    if (!strategy.bringBackPart) throw new Error(`${holdKey(hold)} is not sent out in parts`);
    return strategy.bringBackPart(order, hold, part, by);
  }

  /**
   * A stored order's lines by their hold: the line's own (`batchId`, on an order from a
   * quotation), else the order's (a booking's lines are all on its batch, any other order's on
   * ready stock).
   */
  private groups(order: OrderRecord): HoldGroup[] {
    const batch = this.bookingHold.heldOn(order);
    const groups = groupBy(order.products, (line) =>
      line.batchId !== undefined ? lineHold(line.batchId) : (batch ?? READY_STOCK),
    );
    return groups.map(([hold, lines]) => ({
      order: groups.length === 1 ? order : { ...order, products: lines },
      hold,
      by: this.strategy(hold, order),
    }));
  }

  /** Ready stock; on a batch, a booking's hold (its deposit and states) or a line's own. */
  private strategy(hold: LineHold, order: Pick<OrderRecord, 'booking'>): OrderHold<OrderRecord> {
    if (hold.on !== 'batch') return this.readyStock;
    return order.booking ? this.bookingHold : this.batchLineHold;
  }
}

/** The hold a line names: its batch, or ready stock (null). */
const lineHold = (batchId: string | null): LineHold =>
  batchId ? { on: 'batch', batchId } : READY_STOCK;

/** Items grouped by their hold, in the order each hold first appears. */
function groupBy<T>(items: T[], holdOf: (item: T) => LineHold): [LineHold, T[]][] {
  const groups = new Map<string, [LineHold, T[]]>();
  for (const item of items) {
    const hold = holdOf(item);
    const key = holdKey(hold);
    const group = groups.get(key);
    if (group) group[1].push(item);
    else groups.set(key, [hold, [item]]);
  }
  return [...groups.values()];
}
