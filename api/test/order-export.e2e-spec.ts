/**
 * The orders CSV says what the back office's order list says, cell for cell, on a small shop of
 * seed:years (orders by the tray with quantity tiers, bookings with deposits, M-Pesa and cash
 * payments, customers with accounts and guests): the export reads only the fields of its rows,
 * straight from the database, and must not drift from the orders as the API shows them.
 */
import { randomBytes } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import { ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import {
  lineItemName,
  lineSeedlings,
  ORDER_EXPORT_MAX_ROWS,
  statusLabel,
  toCsv,
  type components,
  type CsvValue,
} from '@spc/shared-contracts';
import { seedYears } from '../../tools/seed-years/seed-years';
import { shopDateTime } from '../src/common/shop-clock';
import { OrderExportRepository } from '../src/orders/order-export.repository';
import { bearer, type Session } from './support/identity';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

type OrderView = components['schemas']['OrderDto'];

/** A row as the order list shows the order: the columns of the export, in its words. */
function shownAs(o: OrderView): CsvValue[] {
  const g = o.guestInfo;
  return [
    o.purchaseNumber,
    shopDateTime(o.orderDate),
    o.customerName,
    g.phoneNumber,
    g.email,
    g.county,
    g.subCounty,
    g.ward,
    g.streetAddress,
    o.products.map((l) => `${lineItemName(l)} x ${l.quantity}`).join('; '),
    o.products.reduce((n, l) => n + lineSeedlings(l), 0),
    o.subtotal,
    o.shippingFee,
    o.totalAmount,
    o.booking?.deposit ?? '',
    o.booking?.balance ?? '',
    statusLabel(o.paymentStatus),
    o.paymentMethod ?? '',
    o.paymentDetails?.transactionCode ?? '',
    shopDateTime(o.paidAt),
    statusLabel(o.orderStatus),
    statusLabel(o.fulfillmentStatus),
  ];
}

describe('the orders CSV on a seed:years shop', () => {
  let t: TestApp;
  let admin: Session;
  const day = (daysAgo: number) =>
    new Date(Date.now() + 3 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp({ name: 'order_export' });
    ({ admin } = await createShopWorld(t, { product: { price: 120, quantity: 1000 } }));
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    await seedYears(db, { orders: 300, customers: 40, days: 120, seed: 11, batch: 500 });
    // An account renamed since it ordered: the export names it as the list does, by the account.
    const placed = await db.collection('orders').findOne({ placedBy: { $type: 'string' } });
    const renamed = await db
      .collection('users')
      .updateOne(
        { _id: new ObjectId(placed!.placedBy as string) },
        { $set: { fullName: `Renamed ${randomBytes(3).toString('hex')}` } },
      );
    expect(renamed.modifiedCount).toBe(1);
  });
  afterAll(() => t.close());

  it.each([
    ['newest first', ''],
    ['biggest first', '&sortBy=totalAmount&sortOrder=desc'],
  ])('writes every order of the days as the order list shows it (%s)', async (_, sort) => {
    const range = `from=${day(130)}&to=${day(0)}${sort}`;
    const res = await t
      .http()
      .get(`/api/orders/export.csv?${range}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    const shown: OrderView[] = [];
    for (let page = 1; ; page++) {
      const list = await t
        .http()
        .get(`/api/orders?${range}&page=${page}&limit=100`)
        .set(bearer(admin.accessToken))
        .expect(200);
      shown.push(...(list.body.orders as OrderView[]));
      if (list.body.orders.length < 100) break;
    }
    expect(shown.length).toBeGreaterThan(250);
    // What the seed made is in it: trays and tiers, bookings, M-Pesa codes, a renamed account.
    expect(shown.some((o) => o.products.some((l) => l.unit && l.unit.seedlings > 1))).toBe(true);
    expect(shown.some((o) => o.products.some((l) => l.tier))).toBe(true);
    expect(shown.some((o) => o.booking)).toBe(true);
    expect(shown.some((o) => o.paymentDetails?.transactionCode)).toBe(true);
    expect(shown.some((o) => o.customerName.startsWith('Renamed '))).toBe(true);
    const [header, ...rows] = res.text.split('\n');
    expect(header).toBe(
      'Purchase number,Order date (Nairobi),Customer,Phone,E-mail,County,Sub-county,Ward,Street address,Products,Items,Subtotal (KES),Delivery (KES),Total (KES),Deposit (KES),Balance (KES),Payment status,Payment method,Transaction code,Paid at (Nairobi),Order status,Fulfillment status',
    );
    // Row for row (a text of several lines is quoted, so compare the whole text).
    expect(rows.join('\n')).toBe(toCsv(shown.map(shownAs)));
  });

  it('a download given up after its first rows closes its cursor without an error, however often', async () => {
    // The export asks for the next rows while it hands on the last ones; a download closed then
    // (or a 400 for too many orders) must not leave that read to fail unheard (CI saw "cursor id
    // not found" end a run).
    const repository = t.app.get(OrderExportRepository);
    const failures: unknown[] = [];
    const heard = (reason: unknown) => failures.push(reason);
    process.on('unhandledRejection', heard);
    try {
      for (let round = 0; round < 20; round++) {
        const rows = repository.batches(
          { from: new Date(Date.now() - 200 * 86_400_000) },
          20,
          10_000,
        );
        const first = await rows.next();
        expect(first.value).toHaveLength(20);
        await rows.return(undefined);
      }
      await new Promise((settle) => setTimeout(settle, 500));
    } finally {
      process.off('unhandledRejection', heard);
    }
    expect(failures).toEqual([]);
  });

  it('refuses more than ORDER_EXPORT_MAX_ROWS orders with a 400 that says how many, and records nothing', async () => {
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    // January 2020, before the seeded years: only the number and the day the count reads.
    const many = Array.from({ length: ORDER_EXPORT_MAX_ROWS + 1 }, (_, i) => ({
      purchaseNumber: `SPD-2020-X${String(i).padStart(6, '0')}`,
      placement: 'placed',
      orderDate: new Date(Date.UTC(2020, 0, 15, 8, 0, i % 60)),
    }));
    // In parts: one command of 10,001 orders (each in every index of the orders) outlasted the
    // driver's 45 s socket timeout on a loaded machine.
    for (let i = 0; i < many.length; i += 1000)
      await db.collection('orders').insertMany(many.slice(i, i + 1000));
    const exports = () => db.collection('audit_logs').countDocuments({ action: 'orders.export' });
    const before = await exports();
    const res = await t
      .http()
      .get('/api/orders/export.csv?from=2020-01-01&to=2020-01-31')
      .set(bearer(admin.accessToken))
      .expect(400);
    expect(res.body.message).toBe(
      '10,001 orders match; an export holds at most 10,000. Narrow the dates or filters.',
    );
    expect(await exports()).toBe(before);
    // The next export is answered as before.
    await t
      .http()
      .get(`/api/orders/export.csv?from=${day(3)}&to=${day(0)}`)
      .set(bearer(admin.accessToken))
      .expect(200);
  }, 300_000); // ten thousand orders written on a busy machine: more than the suites' two minutes
});
