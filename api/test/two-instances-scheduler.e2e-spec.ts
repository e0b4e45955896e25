/**
 * The one scheduler with two API instances (two Nest applications in this process, on one database,
 * writing e-mail to one outbox folder, texting through one gateway): every sweep falls due on both
 * at once (the scheduler asked to run what is due two days from now), and each piece of work is
 * done once: a booking's notice, an unpaid order's expiry, the day's low-stock digest, the
 * retention of an old order. A sweep's lease left by an instance that died is taken over; one held
 * by a live instance is waited for.
 */
import { randomBytes } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { Scheduler } from '../src/common/scheduler/scheduler';
import { SCHEDULER_LEASES_COLLECTION } from '../src/common/scheduler/sweep-leases.store';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer } from './support/identity';
import { decoded, outbox } from './support/mail';
import { guest, placeOrder, stockOf } from './support/shop';
import type { ShopWorld } from './support/shop-world';
import type { TestApp } from './support/test-app';
import { startTwoInstances, type TwoInstances } from './support/two-instances';
import { sleep, waitFor } from './support/wait';

interface OrderBody {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  booking: { deposit: number } | null;
  guestInfo: { fullName: string; phoneNumber: string; email: string };
}

/** 08:00 in Nairobi (after the digest's hour), `days` shop days from today. */
function morningIn(days: number): Date {
  return new Date(`${addDays(shopDay(new Date()), days)}T05:00:00Z`);
}

describe('one scheduler on two API instances: every sweep due at once, each piece of work done once', () => {
  let two: TwoInstances;
  let dataDir: string;
  let a: TestApp;
  let b: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    two = await startTwoInstances('two_scheduler');
    ({ a, b, world, dataDir } = two);
  }, 90_000);
  afterAll(() => two?.close());

  const db = () => a.app.get<Connection>(getConnectionToken()).db!;
  const staff = () => bearer(world.staff.accessToken);
  const both = (at: Date) =>
    Promise.all([a.app.get(Scheduler).runDue(at), b.app.get(Scheduler).runDue(at)]);
  const instances = () => [a.app.get(Scheduler).instanceId, b.app.get(Scheduler).instanceId];
  const mails = () => outbox(dataDir).map(decoded);
  const msisdn = (o: OrderBody) => `+254${o.guestInfo.phoneNumber.slice(1)}`;
  const detail = async (o: OrderBody) =>
    (await a.http().get(`/api/orders/${o._id}/detail`).set(staff()).expect(200)).body as {
      order: { orderStatus: string; guestInfo: OrderBody['guestInfo'] };
      timeline: { step: string }[];
    };
  const digestsOf = (day: string) =>
    mails().filter((m) => m.includes(`Subject: Low stock on ${day}`));

  /** A settled (cancelled) order placed `years` ago: past the tax retention period. */
  async function oldOrder(years: number): Promise<OrderBody> {
    const o = (
      await placeOrder(a, [{ _id: world.productId, quantity: 1 }], { guestInfo: guest() }).expect(
        201,
      )
    ).body.order as OrderBody;
    await a.http().patch(`/api/orders/cancel/${o._id}`).set(staff()).send({}).expect(200);
    const placed = new Date();
    placed.setUTCFullYear(placed.getUTCFullYear() - years);
    await db()
      .collection('orders')
      .updateOne({ _id: new Types.ObjectId(o._id) }, { $set: { orderDate: placed } });
    return o;
  }

  it('a booking notice, an expiry, the low-stock digest and a retention run happen once with both instances sweeping', async () => {
    // Three bookings whose batch became ready with their notice still owed (a crash before telling).
    const batch = (
      await a
        .http()
        .post('/api/batches')
        .set(staff())
        .send({
          productId: world.productId,
          sownOn: addDays(shopDay(new Date()), -10),
          readyOn: addDays(shopDay(new Date()), 60),
          started: 100,
        })
        .expect(201)
    ).body.batch as { _id: string };
    const bookings: OrderBody[] = [];
    for (let i = 0; i < 3; i++) {
      const o = (
        await placeOrder(a, [{ _id: world.productId, quantity: 2, batchId: batch._id } as never], {
          guestInfo: guest(),
        }).expect(201)
      ).body.order as OrderBody;
      await a
        .http()
        .post(`/api/orders/${o._id}/booking/deposit`)
        .set(staff())
        .send({
          transactionCode: `SCH${randomBytes(4).toString('hex').toUpperCase()}`,
          amount: o.booking!.deposit,
        })
        .expect(200);
      bookings.push(o);
    }
    await db()
      .collection('orders')
      .updateMany(
        { _id: { $in: bookings.map((o) => new Types.ObjectId(o._id)) } },
        {
          $set: {
            'booking.state': 'Balance due',
            'booking.readyAt': new Date(),
            'booking.balanceDueBy': addDays(shopDay(new Date()), 7),
            'booking.noticeDue': true,
          },
        },
      );
    // An order nobody pays (it expires after 24 hours), a product running low, an old order.
    const stockBefore = await stockOf(a, world.productId);
    const unpaid = (
      await placeOrder(a, [{ _id: world.productId, quantity: 3 }], { guestInfo: guest() }).expect(
        201,
      )
    ).body.order as OrderBody;
    const low = await world.createProduct({ name: 'Scheduler Tree Tomato', quantity: 2 });
    const old = await oldOrder(7);

    // Two days on, the morning: every sweep is due on both instances at once.
    const at = morningIn(2);
    await both(at);

    const balanceMails = (o: OrderBody) =>
      mails().filter(
        (m) =>
          m.includes(`To: ${o.guestInfo.email}`) &&
          m.includes(`balance due for booking ${o.purchaseNumber}`),
      );
    const balanceTexts = (o: OrderBody) =>
      two.sms.outbox.filter(
        (s) => s.to === msisdn(o) && /are ready\. Pay the balance/.test(s.message),
      );
    const cancelTexts = () =>
      two.sms.outbox.filter(
        (s) => s.to === msisdn(unpaid) && s.message.includes('has been cancelled'),
      );
    await waitFor(
      async () =>
        bookings.every((o) => balanceMails(o).length && balanceTexts(o).length) &&
        cancelTexts().length > 0,
      (done) => done,
      10_000,
      100,
    );
    // Time for any second copy to arrive.
    await sleep(1500);

    expect(
      bookings.map((o) => ({
        booking: o.purchaseNumber,
        emails: balanceMails(o).length,
        texts: balanceTexts(o).length,
      })),
    ).toEqual(bookings.map((o) => ({ booking: o.purchaseNumber, emails: 1, texts: 1 })));

    const expired = await detail(unpaid);
    expect({
      status: expired.order.orderStatus,
      expiries: expired.timeline.filter((e) => e.step === 'Cancelled (unpaid)').length,
      texts: cancelTexts().length,
      stock: await stockOf(a, world.productId),
    }).toEqual({ status: 'Cancelled', expiries: 1, texts: 1, stock: stockBefore });

    // One digest for each of the shop's people (the admin and the staff member), naming the product.
    const digests = digestsOf(shopDay(at));
    expect(digests.map((m) => /^To: (.*)$/m.exec(m)![1]!.trim()).sort()).toEqual(
      [world.admin.user.email, world.staff.user.email].sort(),
    );
    expect(digests[0]).toContain('Scheduler Tree Tomato: 2 left');
    expect(digests[0]).toContain(`/manage/products/${low._id}/stock`);

    expect((await detail(old)).order.guestInfo).toMatchObject({
      fullName: 'Deleted customer',
      phoneNumber: '',
      email: '',
    });

    // Each one-instance sweep ran under its lease, held by one of the two.
    const leases = await db().collection(SCHEDULER_LEASES_COLLECTION).find().toArray();
    const held = new Map(leases.map((l) => [l._id as unknown as string, l.holder as string]));
    for (const name of [
      'bookings.sweep',
      'orders.expire-unpaid',
      'stock.low-stock-digest',
      'privacy.retention',
      'mail.send-due',
      'sms.send-due',
    ])
      expect([name, instances().includes(held.get(name)!)]).toEqual([name, true]);
    // The database watchdog is each instance's own: it takes no lease.
    expect(held.has('database.watchdog')).toBe(false);
  });

  it("a sweep's lease left by an instance that died is taken over; one a live instance holds is waited for", async () => {
    const leases = db().collection<{ _id: string; holder: string; expiresAt: Date }>(
      SCHEDULER_LEASES_COLLECTION,
    );
    // An instance that died ten minutes ago holding the retention sweep; a live one holding the digest.
    await leases.replaceOne(
      { _id: 'privacy.retention' },
      { holder: 'api-1:4242:deadbeef', expiresAt: new Date(Date.now() - 10 * 60_000) },
      { upsert: true },
    );
    await leases.replaceOne(
      { _id: 'stock.low-stock-digest' },
      { holder: 'api-2:4343:a11ve000', expiresAt: new Date(Date.now() + 60 * 60_000) },
      { upsert: true },
    );
    const old = await oldOrder(8);
    const at = morningIn(3);

    await both(at);

    expect((await detail(old)).order.guestInfo.phoneNumber).toBe('');
    const retention = await leases.findOne({ _id: 'privacy.retention' });
    expect(instances()).toContain(retention!.holder);
    expect(retention!.expiresAt.getTime()).toBeGreaterThan(Date.now());
    // The live instance's digest is its own to send: nothing from these two.
    await sleep(500);
    expect(digestsOf(shopDay(at))).toHaveLength(0);

    // That instance dies: once its lease has lapsed, one of these sends the day's digest, once.
    await leases.updateOne(
      { _id: 'stock.low-stock-digest' },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    await both(at);
    await sleep(500);
    expect(digestsOf(shopDay(at))).toHaveLength(2);
  });
});
