/**
 * Attacks on the booking steps run by the order runner (READY_BOOKING, AFFECT_BOOKING, the move):
 * concurrent moves by two clerks and the owner, moves to batches that cannot take the booking,
 * refund and move together, ready/failed raced, and a batch that changes while a move onto it is
 * under way. After each: the batches' holds, the order, the audit entries and the texts are exactly
 * right (nothing held twice, nothing lost, one audit entry, one SMS).
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { BatchesService } from '../src/batches/batches.service';
import { BookingLifeService } from '../src/bookings/booking-life.service';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer, registerCustomer, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { guest, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { waitFor } from './support/wait';

interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
  amountPaid: number;
  paymentStatus: string;
  orderStatus: string;
  booking: {
    state: string;
    problem: string | null;
    batchId: string;
    movedFromBatchId: string | null;
    readyAt: string | null;
  } | null;
  guestInfo: { phoneNumber: string };
}
interface Batch {
  _id: string;
  available: number;
  booked: number;
  quantity: number;
  status: string;
}

const asDaraja = (phone: string) => `254${phone.slice(1)}`;

describe('booking steps under attack', () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let staff: Session;
  let owner: Session;
  let stranger: Session;
  let productId: string;
  let otherProductId: string;
  let world: ShopWorld;
  let life: BookingLifeService;
  let db: Connection['db'];

  beforeAll(async () => {
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('booking_steps_attack', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
      BOOKING_DEPOSIT_PERCENT: '30',
      BOOKING_BALANCE_DAYS: '7',
    });
    world = await createShopWorld(m.t, { product: { price: 500, quantity: 1000 } });
    staff = world.staff;
    productId = world.productId;
    owner = await registerCustomer(m.t);
    stranger = await registerCustomer(m.t);
    life = m.t.app.get(BookingLifeService, { strict: false });
    db = m.t.app.get<Connection>(getConnectionToken()).db;
    otherProductId = (await world.createProduct({ name: 'Other seedling', price: 300 }))._id;
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    const check = await waitFor(
      () => checkStockLedger(db!),
      (c) => c.differences.length === 0 && c.overbooked.length === 0,
      15_000,
      250,
    );
    expect(check.differences).toEqual([]);
    expect(check.overbooked).toEqual([]);
    await m.close();
    await sms.close();
  });

  const inDays = (n: number) => addDays(shopDay(new Date()), n);
  const newBatch = async (started = 100, readyIn = 60, product = productId): Promise<Batch> =>
    (
      await m.t
        .http()
        .post('/api/batches')
        .set(bearer(staff.accessToken))
        .send({ productId: product, sownOn: inDays(-10), readyOn: inDays(readyIn), started })
        .expect(201)
    ).body.batch as Batch;
  const book = async (batchId: string, quantity = 2, token?: string): Promise<Order> =>
    (
      await placeOrder(m.t, [{ _id: productId, quantity, batchId } as never], {
        guestInfo: guest(),
        ...(token ? { token } : {}),
      }).expect(201)
    ).body.order as Order;
  const get = async (id: string): Promise<Order> =>
    (await m.t.http().get(`/api/orders/${id}`).set(bearer(staff.accessToken)).expect(200)).body
      .order as Order;
  const batchNow = async (id: string): Promise<Batch> =>
    (await m.t.http().get(`/api/batches/${id}`).set(bearer(staff.accessToken)).expect(200)).body
      .batch as Batch;
  const holdsOf = async (batchId: string, orderId: string): Promise<number[]> => {
    const { ObjectId } = await import('mongodb');
    const b = await db!.collection('batches').findOne({ _id: new ObjectId(batchId) });
    return ((b?.holds ?? []) as { orderId: string; seedlings: number }[])
      .filter((h) => h.orderId === orderId)
      .map((h) => h.seedlings);
  };
  const audits = (action: string, purchaseNumber: string) =>
    db!.collection('audit_logs').countDocuments({
      action,
      $or: [{ 'target.label': purchaseNumber }, { targetLabel: purchaseNumber }],
    });
  const textsTo = (o: Order, re: RegExp) =>
    sms.outbox.filter(
      (s) => s.to === `+${asDaraja(o.guestInfo.phoneNumber)}` && re.test(s.message),
    );
  const fail = (batchId: string) =>
    m.t
      .http()
      .post(`/api/batches/${batchId}/fail`)
      .set(bearer(staff.accessToken))
      .send({ note: 'frost' });
  const ready = (batchId: string) =>
    m.t.http().post(`/api/batches/${batchId}/ready`).set(bearer(staff.accessToken));
  const move = (orderId: string, batchId: string, token = staff.accessToken) =>
    m.t.http().post(`/api/orders/${orderId}/booking/move`).set(bearer(token)).send({ batchId });
  const refund = (orderId: string, token = staff.accessToken) =>
    m.t.http().post(`/api/orders/${orderId}/booking/refund`).set(bearer(token));
  const deposit = (o: Order, amount: number, code: string) =>
    m.t
      .http()
      .post(`/api/orders/${o._id}/booking/deposit`)
      .set(bearer(staff.accessToken))
      .send({ transactionCode: code, amount });

  let codes = 0;
  /** An affected booking of `owner` (its batch failed), 2 seedlings, and its old batch. */
  async function affectedBooking(
    paid: 'no' | 'deposit' | 'full' = 'no',
  ): Promise<{ o: Order; old: Batch }> {
    const old = await newBatch(10, 30);
    const o = await book(old._id, 2, owner.accessToken);
    if (paid !== 'no') await deposit(o, 300, `SBKA${String(++codes).padStart(6, '0')}`).expect(200);
    if (paid === 'full')
      await m.t
        .http()
        .patch(`/api/orders/complete-payment/${o._id}`)
        .set(bearer(staff.accessToken))
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: 700 } })
        .expect(200);
    await fail(old._id).expect(201);
    expect((await get(o._id)).booking!.state).toBe('Affected');
    return { o, old };
  }

  /** The settled texts: waits a moment for the SMS queue, then counts. */
  const settledTexts = async (o: Order, re: RegExp, n: number) => {
    await waitFor(
      async () => textsTo(o, re).length,
      (c) => c >= n,
      10_000,
      100,
    );
    await new Promise((r) => setTimeout(r, 600));
    return textsTo(o, re).length;
  };

  it('two clerks and the owner move one booking at once to the same batch: one move, one hold, one audit, one SMS', async () => {
    const { o, old } = await affectedBooking('deposit');
    const next = await newBatch(100, 90);
    const res = await Promise.all([
      move(o._id, next._id),
      move(o._id, next._id),
      move(o._id, next._id, owner.accessToken),
    ]);
    const codes = res.map((r) => r.status).sort();
    expect(codes).toEqual([200, 409, 409]);
    expect(await holdsOf(next._id, o._id)).toEqual([2]);
    expect(await holdsOf(old._id, o._id)).toEqual([]);
    expect((await batchNow(next._id)).available).toBe(98);
    expect((await get(o._id)).booking).toMatchObject({
      state: 'Booked',
      batchId: next._id,
      movedFromBatchId: old._id,
    });
    await waitFor(
      () => audits('booking.move', o.purchaseNumber),
      (n) => n >= 1,
      5000,
      100,
    );
    expect(await audits('booking.move', o.purchaseNumber)).toBe(1);
    expect(await settledTexts(o, /is moved to the batch/, 1)).toBe(1);
    expect(await life.finishMoves(new Date(Date.now() + 120_000))).toBe(0);
  });

  it('two clerks and the owner move one booking at once to three different batches: it lands on exactly one', async () => {
    const { o } = await affectedBooking();
    const targets = [await newBatch(50, 90), await newBatch(50, 100), await newBatch(50, 110)];
    const res = await Promise.all([
      move(o._id, targets[0]!._id),
      move(o._id, targets[1]!._id),
      move(o._id, targets[2]!._id, owner.accessToken),
    ]);
    expect(res.filter((r) => r.status === 200)).toHaveLength(1);
    const now = await get(o._id);
    for (const b of targets)
      expect(await holdsOf(b._id, o._id)).toEqual(b._id === now.booking!.batchId ? [2] : []);
    expect(now.booking!.state).toBe('Deposit due');
    expect(await audits('booking.move', o.purchaseNumber)).toBe(1);
    expect(await settledTexts(o, /is moved to the batch/, 1)).toBe(1);
  });

  it('a move replayed after it was done is refused and changes nothing', async () => {
    const { o } = await affectedBooking();
    const next = await newBatch(50, 90);
    await move(o._id, next._id).expect(200);
    await move(o._id, next._id).expect(409);
    await move(o._id, next._id, owner.accessToken).expect(409);
    expect(await holdsOf(next._id, o._id)).toEqual([2]);
    expect(await audits('booking.move', o.purchaseNumber)).toBe(1);
  });

  it('refuses a move to a failed batch, the same batch (any spelling), a batch of another product, one with too little room, and a stranger', async () => {
    const { o, old } = await affectedBooking();
    const dead = await newBatch(50, 90);
    await fail(dead._id).expect(201);
    const full = await newBatch(1, 90);
    await move(o._id, dead._id).expect(409);
    await move(o._id, old._id).expect(400);
    const upper = old._id.toUpperCase();
    expect([400, 409]).toContain((await move(o._id, upper)).status);
    if (otherProductId) {
      const foreign = await newBatch(50, 90, otherProductId);
      await move(o._id, foreign._id).expect(400);
      expect(await holdsOf(foreign._id, o._id)).toEqual([]);
    }
    expect((await move(o._id, full._id)).status).toBe(409);
    const later = await newBatch(50, 90);
    await move(o._id, later._id, stranger.accessToken).expect(404);
    for (const b of [dead, full, later]) expect(await holdsOf(b._id, o._id)).toEqual([]);
    expect(await holdsOf(old._id, o._id)).toEqual([2]);
    const now = await get(o._id);
    expect(now.booking).toMatchObject({ state: 'Affected', batchId: old._id });
    expect(await audits('booking.move', o.purchaseNumber)).toBe(0);
    expect(await life.finishMoves(new Date(Date.now() + 120_000))).toBe(0);
  });

  it('the last seedlings of a batch: two affected bookings moved there at once, only one fits', async () => {
    const a = await affectedBooking();
    const b = await affectedBooking();
    const tight = await newBatch(3, 90);
    const res = await Promise.all([move(a.o._id, tight._id), move(b.o._id, tight._id)]);
    expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await batchNow(tight._id);
    expect(after.available).toBe(1);
    const holds = [...(await holdsOf(tight._id, a.o._id)), ...(await holdsOf(tight._id, b.o._id))];
    expect(holds).toEqual([2]);
  });

  it('refund and move at once: either refunded with no hold anywhere, or moved with no refund', async () => {
    const { o, old } = await affectedBooking('deposit');
    const next = await newBatch(50, 90);
    const [moved, refunded] = await Promise.all([
      move(o._id, next._id),
      refund(o._id, owner.accessToken),
    ]);
    expect([moved.status, refunded.status].sort()).toEqual([200, 409]);
    const now = await get(o._id);
    expect(await holdsOf(old._id, o._id)).toEqual([]);
    if (refunded.status === 200) {
      expect(now).toMatchObject({ orderStatus: 'Cancelled', booking: { state: 'Refunded' } });
      expect(await holdsOf(next._id, o._id)).toEqual([]);
      expect((await batchNow(next._id)).available).toBe(50);
    } else {
      expect(now.booking).toMatchObject({ state: 'Booked', batchId: next._id });
      expect(await holdsOf(next._id, o._id)).toEqual([2]);
      expect(now.amountPaid).toBe(300);
    }
    expect(await life.finishMoves(new Date(Date.now() + 120_000))).toBe(0);
  });

  it('ready twice at once, and ready and failed at once: one step wins, each booking told once', async () => {
    const batch = await newBatch(20, 30);
    const o = await book(batch._id, 2);
    await deposit(o, 300, 'SBKATTRDY1').expect(200);
    const twice = await Promise.all([ready(batch._id), ready(batch._id)]);
    expect(twice.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await get(o._id)).booking!.state).toBe('Balance due');
    expect(await audits('booking.ready', o.purchaseNumber)).toBe(1);
    expect(await settledTexts(o, /are ready\. Pay/, 1)).toBe(1);

    const other = await newBatch(20, 30);
    const p = await book(other._id, 2);
    const both = await Promise.all([ready(other._id), fail(other._id)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const state = (await get(p._id)).booking!.state;
    const status = (await batchNow(other._id)).status;
    expect(status === 'Ready' ? 'Deposit due' : 'Affected').toBe(state);
    expect(await audits('booking.affected', p.purchaseNumber)).toBe(status === 'Failed' ? 1 : 0);
  });

  /**
   * The move checks the new batch, holds on it, then writes the order. A batch that fails (or
   * falls short, or gets ready) between the hold and the order's write tells its bookings by
   * reading the orders on it: the moving booking is not there yet, so it is never told.
   */
  describe('a batch that changes while a move onto it is under way', () => {
    const batches = () => m.t.app.get(BatchesService, { strict: false });

    /** Runs `meanwhile` right after the move's hold on `target` is taken. */
    function betweenHoldAndWrite(target: string, meanwhile: () => Promise<unknown>) {
      const service = batches();
      const original = service.hold.bind(service);
      return jest
        .spyOn(service, 'hold')
        .mockImplementation(async (batchId, product, orderId, seedlings) => {
          await original(batchId, product, orderId, seedlings);
          if (batchId === target) await meanwhile();
        });
    }

    it('failed meanwhile: the moved booking is affected, not left booked on a failed batch', async () => {
      const { o } = await affectedBooking('deposit');
      const next = await newBatch(50, 90);
      const spy = betweenHoldAndWrite(next._id, () => fail(next._id).expect(201));
      try {
        await move(o._id, next._id);
      } finally {
        spy.mockRestore();
      }
      await life.sweep();
      const now = await get(o._id);
      expect((await batchNow(next._id)).status).toBe('Failed');
      // Its new batch failed: it must be affected again (to be moved or refunded), and told.
      expect(now.booking).toMatchObject({ state: 'Affected', problem: 'failed' });
      // One audit entry and one SMS per affect (the old batch's, the new one's).
      expect(await audits('booking.affected', o.purchaseNumber)).toBe(2);
      expect(await settledTexts(o, /did not grow as planned/, 2)).toBe(2);
      expect(await audits('booking.move', o.purchaseNumber)).toBe(1);
    });

    it('fell short meanwhile: the batch is not left holding more than it has with nobody affected', async () => {
      const { o } = await affectedBooking();
      const next = await newBatch(10, 90);
      const early = await book(next._id, 6);
      const spy = betweenHoldAndWrite(next._id, () =>
        m.t
          .http()
          .post(`/api/batches/${next._id}/losses`)
          .set(bearer(staff.accessToken))
          .send({ quantity: 3, note: 'Hail' })
          .expect(201),
      );
      try {
        await move(o._id, next._id);
      } finally {
        spy.mockRestore();
      }
      await life.sweep();
      const after = await batchNow(next._id);
      // 7 left for 6 + 2 booked: one of the two bookings no longer fits and must be affected.
      expect(after.quantity).toBe(7);
      const states = [(await get(early._id)).booking!.state, (await get(o._id)).booking!.state];
      expect(states).toContain('Affected');
      // The booking that came last (the move) is the one that no longer fits; the others keep theirs.
      expect((await get(o._id)).booking).toMatchObject({ state: 'Affected', problem: 'short' });
      expect((await get(early._id)).booking!.state).toBe('Deposit due');
    });

    it('ready meanwhile: a booking paid in full moved onto it knows its batch is ready (it can go out)', async () => {
      const { o } = await affectedBooking('full');
      const next = await newBatch(50, 90);
      const spy = betweenHoldAndWrite(next._id, async () => {
        // (A batch is made ready early: its ready day moved to tomorrow is not needed for staff.)
        await ready(next._id).expect(201);
      });
      try {
        await move(o._id, next._id);
      } finally {
        spy.mockRestore();
      }
      await life.sweep();
      const now = await get(o._id);
      expect(now.booking!.batchId).toBe(next._id);
      expect(now.booking!.readyAt).not.toBeNull();
    });
  });
});
