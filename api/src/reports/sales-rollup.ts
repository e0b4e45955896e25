import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { lineItemName } from '@spc/shared-contracts';
import type { Connection } from 'mongoose';
import { OrderSales } from '../orders/order-sales';
import type { BookingPayment } from '../bookings/bookings.repository';
import type { PaidOrder } from '../orders/order-sales.repository';
import { addDays, shopDay, startOfShopDay } from '../common/shop-clock';

/** One day's sales (Africa/Nairobi), as the report adds them up. */
export interface SalesDay {
  /** YYYY-MM-DD. */
  _id: string;
  /** The same day, indexed (SecantusDB plans no range on `_id`). */
  day: string;
  orders: number;
  revenue: number;
  deliveryFees: number;
  /** A row per product and unit (`unitName`); productName names the unit unless single. */
  products: {
    productId: string;
    unitName: string;
    productName: string;
    quantity: number;
    revenue: number;
  }[];
  /** Bookings' deposits received this day: KES and how many. */
  deposits: number;
  depositCount: number;
  /** Bookings' balances received this day (a booking paid in full at once: the rest after its deposit). */
  balances: number;
  balanceCount: number;
  /**
   * The orders counted in this day (paid, or a booking's deposit or balance received), so a day an
   * order leaves (its payment moved) is rebuilt too.
   */
  orderIds: string[];
  /** New at each write of the row: a month's products (`sales_months`) name the rows they add up. */
  stamp: string;
}

/** A product's sales in a day or a month, per unit. */
export type ProductSales = SalesDay['products'][number];

/**
 * A month's products added up from its days (`sales_months`, `_id` YYYY-MM), so a year's report
 * reads twelve lists of products instead of 365. `days` names the day rows it was added up from
 * (each `day:stamp`): a month whose days were written since is added up again when read.
 */
interface SalesMonth {
  _id: string;
  days: string;
  products: ProductSales[];
}

/** The days in [from, to] and what their products sold: the sales report's rows. */
export interface SalesRows {
  days: Omit<SalesDay, 'orderIds' | 'products'>[];
  /** Per product and unit, possibly more than one row each (months and days): the caller adds up. */
  products: ProductSales[];
}

interface RollupState {
  _id: 'sales';
  /** Every order written before this instant (less MARGIN_MS) is in the days. */
  upTo: Date;
  /** The rows' shape: days written by an older one are all rebuilt once (ROLLUP_VERSION). */
  version?: number;
}

/**
 * 2: days carry bookings' deposits and balances (the report's money received, issue 48);
 * 3: days carry a stamp, and months add up their products.
 */
const ROLLUP_VERSION = 3;

/**
 * Writes still in flight when a refresh starts are caught by the next one: the changes are read
 * from `upTo` less this margin (an order write takes milliseconds; API instances' clocks must agree
 * within it).
 */
const MARGIN_MS = 60_000;

/**
 * The sales report's rollup: one row per day in `sales_days`, so a year's report reads 365 rows
 * instead of every paid order of the year (a scan that grows with the years), and the money
 * bookings brought in (deposits, balances) with them.
 *
 * It stays correct by being rebuilt incrementally from the orders, never written beside them:
 * before each read, the orders written since the last refresh (`updatedAt`, indexed) name the days
 * to rebuild: the days each is paid in now (in full, or a booking's deposit and balance) and any day
 * that counted it before (`orderIds`). Each such day is recomputed from its paid orders (indexed by
 * `paidAt`) and bookings' payments (by `booking.depositPaidAt`, `balancePaidAt`) and replaced whole, so a
 * rebuild is idempotent and two API instances refreshing at once write the same rows. The first
 * refresh on a database builds every day in one pass.
 */
@Injectable()
export class SalesRollup implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(SalesRollup.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly sales: OrderSales,
    @InjectConnection() private readonly connection: Connection,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.days().createIndex({ orderIds: 1 });
    await this.days().createIndex({ day: 1 });
  }

  /** Brought up to date once at start-up, so the first report after a restart reads few days. */
  onApplicationBootstrap(): void {
    this.refresh().catch((error: Error) =>
      this.logger.warn(`The sales rollup could not be refreshed: ${error.message}`),
    );
  }

  private days() {
    return this.connection.collection<SalesDay>('sales_days');
  }
  private months() {
    return this.connection.collection<SalesMonth>('sales_months');
  }
  private state() {
    return this.connection.collection<RollupState>('sales_rollup_state');
  }

  /**
   * The days in [from, to] (YYYY-MM-DD) with sales or bookings' money, oldest first, brought up to
   * date first, and their products: a whole month's from its month row (added up again when one of
   * its days was written since), the other days' from their rows.
   */
  async between(from: string, to: string): Promise<SalesRows> {
    const days = await this.daysBetween(from, to);
    const byMonth = new Map<string, typeof days>();
    for (const row of days) {
      const month = row.day.slice(0, 7);
      byMonth.set(month, [...(byMonth.get(month) ?? []), row]);
    }
    const whole = [...byMonth.keys()].filter(
      (month) => `${month}-01` >= from && lastDayOf(month) <= to,
    );
    const stored = new Map(
      (
        await this.months()
          .find({ _id: { $in: whole } })
          .toArray()
      ).map((m) => [m._id, m]),
    );
    const products: ProductSales[] = [];
    for (const month of whole) {
      const key = byMonth
        .get(month)!
        .map((d) => `${d.day}:${d.stamp}`)
        .join(',');
      const row = stored.get(month);
      products.push(...(row?.days === key ? row.products : await this.addUpMonth(month, key)));
    }
    const rest = days.filter((d) => !whole.includes(d.day.slice(0, 7))).map((d) => d.day);
    if (rest.length)
      for (const row of await this.days()
        .find({ day: { $in: rest } }, { projection: { products: 1 } })
        .toArray())
        products.push(...row.products);
    return { days, products };
  }

  /** The days in [from, to] with sales or bookings' money, without their products, brought up to date first. */
  async daysBetween(from: string, to: string): Promise<SalesRows['days']> {
    await this.refresh();
    return this.days()
      .find({ day: { $gte: from, $lte: to } }, { projection: { orderIds: 0, products: 0 } })
      .sort({ day: 1 })
      .toArray();
  }

  /** A month's products added up from its day rows (`key`: the days and stamps read before). */
  private async addUpMonth(month: string, key: string): Promise<ProductSales[]> {
    const rows = await this.days()
      .find(
        { day: { $gte: `${month}-01`, $lte: lastDayOf(month) } },
        { projection: { day: 1, stamp: 1, products: 1 } },
      )
      .sort({ day: 1 })
      .toArray();
    const products = new Map<string, ProductSales>();
    for (const line of rows.flatMap((r) => r.products)) {
      const id = `${line.productId}:${line.unitName}`;
      const p = products.get(id) ?? { ...line, quantity: 0, revenue: 0 };
      p.quantity += line.quantity;
      p.revenue += line.revenue;
      products.set(id, p);
    }
    const list = [...products.values()];
    // Kept only when the days read are the days the caller saw: a day written between is read next time.
    if (rows.map((d) => `${d.day}:${d.stamp}`).join(',') === key)
      await this.months().replaceOne(
        { _id: month },
        { days: key, products: list },
        { upsert: true },
      );
    return list;
  }

  /** KES of every paid, not cancelled order ever. */
  async total(): Promise<number> {
    await this.refresh();
    const rows = await this.days()
      .find({ day: { $gte: '' } }, { projection: { revenue: 1 } })
      .toArray();
    return rows.reduce((n, r) => n + r.revenue, 0);
  }

  /** One refresh at a time in this process; callers during one wait for it. */
  refresh(): Promise<void> {
    this.running ??= this.refreshNow().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async refreshNow(): Promise<void> {
    const started = new Date();
    const state = await this.state().findOne({ _id: 'sales' });
    if (!state || state.version !== ROLLUP_VERSION) {
      await this.rebuildAll(started);
    } else {
      const changed = await this.sales.changedSince(new Date(state.upTo.getTime() - MARGIN_MS));
      if (changed.length) {
        const days = new Set<string>();
        for (const order of changed) for (const at of order.paidAt) days.add(shopDay(at));
        const holding = await this.days()
          .find({ orderIds: { $in: changed.map((o) => o._id) } }, { projection: { _id: 1 } })
          .toArray();
        for (const row of holding) days.add(row._id);
        for (const day of days) await this.rebuildDay(day);
      }
    }
    await this.state().updateOne(
      { _id: 'sales' },
      { $set: { upTo: started, version: ROLLUP_VERSION } },
      { upsert: true },
    );
  }

  /**
   * Every day from the first payment on (a booking's deposit comes before its order is paid), a
   * month of orders in memory at a time.
   */
  private async rebuildAll(started: Date): Promise<void> {
    const firsts = [await this.sales.firstPaidAt(), await this.sales.firstBookingPaymentAt()];
    const first = firsts.filter((at): at is Date => !!at).sort((a, b) => +a - +b)[0];
    const end = new Date(started.getTime() + 1);
    if (first)
      for (let day = shopDay(first); startOfShopDay(day) < end; day = addDays(day, 31)) {
        const from = startOfShopDay(day);
        const to = new Date(Math.min(startOfShopDay(addDays(day, 31)).getTime(), end.getTime()));
        const byDay = new Map<string, { paid: PaidOrder[]; bookings: BookingPayment[] }>();
        const dayOf = (at: Date) => {
          const key = shopDay(at);
          const entry = byDay.get(key) ?? { paid: [], bookings: [] };
          byDay.set(key, entry);
          return entry;
        };
        const [paid, bookings] = await Promise.all([
          this.sales.paidBetween(from, to),
          this.sales.bookingPaymentsBetween(from, to),
        ]);
        for (const order of paid) dayOf(new Date(order.paidAt!)).paid.push(order);
        for (const payment of bookings) dayOf(payment.at).bookings.push(payment);
        for (const [key, entry] of byDay) await this.write(key, entry.paid, entry.bookings);
      }
  }

  private async rebuildDay(day: string): Promise<void> {
    const [from, to] = [startOfShopDay(day), startOfShopDay(addDays(day, 1))];
    const [paid, bookings] = await Promise.all([
      this.sales.paidBetween(from, to),
      this.sales.bookingPaymentsBetween(from, to),
    ]);
    await this.write(day, paid, bookings);
  }

  private async write(day: string, paid: PaidOrder[], bookings: BookingPayment[]): Promise<void> {
    if (!paid.length && !bookings.length) {
      await this.days().deleteOne({ _id: day });
      return;
    }
    const products = new Map<string, SalesDay['products'][number]>();
    for (const order of paid)
      // One row per product and unit (quantity counts the unit); the unit is named unless single.
      for (const line of order.products) {
        const key = `${line.product._id}:${line.unit.name}`;
        const p = products.get(key) ?? {
          productId: line.product._id,
          unitName: line.unit.name,
          productName: lineItemName({ productName: line.productName, unit: line.unit }),
          quantity: 0,
          revenue: 0,
        };
        p.quantity += line.quantity;
        p.revenue += line.lineTotal;
        products.set(key, p);
      }
    const row: Omit<SalesDay, '_id'> = {
      day,
      orders: paid.length,
      revenue: paid.reduce((n, o) => n + o.totalAmount, 0),
      deliveryFees: paid.reduce((n, o) => n + o.shippingFee, 0),
      products: [...products.values()],
      ...bookingMoney(bookings),
      orderIds: [...new Set([...paid.map((o) => o._id), ...bookings.map((b) => b.orderId)])],
      stamp: randomUUID(),
    };
    await this.days().replaceOne({ _id: day }, row, { upsert: true });
  }
}

/** The last day (YYYY-MM-DD) of a month (YYYY-MM). */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(y!, m!, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** Bookings' deposits and balances received: KES and how many of each. */
export function bookingMoney(payments: BookingPayment[]) {
  const of = (kind: BookingPayment['kind']) => payments.filter((p) => p.kind === kind);
  const sum = (list: BookingPayment[]) => list.reduce((n, p) => n + p.amount, 0);
  return {
    deposits: sum(of('deposit')),
    depositCount: of('deposit').length,
    balances: sum(of('balance')),
    balanceCount: of('balance').length,
  };
}
