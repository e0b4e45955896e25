/**
 * Buyers' KRA PINs (issue 45): a shopper gives one at checkout or in their profile, so the receipt
 * is a tax invoice in their name. The order keeps it (trimmed, upper-cased; a customer's checkout
 * without one takes the profile's), staff and its customer read it on the order's detail alone, a
 * PIN of the wrong form is a 400 that writes nothing, and it is the person's data: in their export,
 * gone with their erasure.
 */
import { randomInt } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import { KRA_PIN_MESSAGE } from '@spc/shared-contracts';
import { Types, type Connection } from 'mongoose';
import { OrdersPersonalData } from '../src/orders/orders-personal-data';
import {
  bearer,
  registerCustomer,
  STRONG_PASSWORD,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { guest, stockOf } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

interface PlacedOrder {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

/** A PIN of the right form no other test uses: A or P, 9 digits, a letter. */
function newPin(): string {
  const letter = () => String.fromCharCode(65 + randomInt(26));
  return `${randomInt(2) ? 'A' : 'P'}${String(randomInt(1e9)).padStart(9, '0')}${letter()}`;
}

describe("a buyer's KRA PIN on an order", () => {
  let t: TestApp;
  let world: ShopWorld;

  beforeAll(async () => {
    // Sign-ups, orders and tracking from one address, more than a minute's share of each.
    t = await createTestApp({ name: 'orderkrapin', env: UNTHROTTLED });
    world = await createShopWorld(t);
  }, 60_000);
  afterAll(() => t.close());

  const http = () => t.http();
  const staff = () => bearer(world.staff.accessToken);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const line = () => [{ _id: world.productId, quantity: 1 }];

  /** Places an order with these body fields besides the cart and delivery details. */
  function order(body: Record<string, unknown>, token?: string, details: object = guest()) {
    let req = http().post('/api/orders');
    if (token) req = req.set(bearer(token));
    return req.send({ guestInfo: details, products: line(), ...body });
  }

  async function placed(body: Record<string, unknown>, token?: string): Promise<PlacedOrder> {
    const res = await order(body, token).expect(201);
    return res.body.order as PlacedOrder;
  }

  async function detailPin(id: string, headers = staff()): Promise<string | null> {
    const res = await http().get(`/api/orders/${id}/detail`).set(headers).expect(200);
    expect(res.body.order).toHaveProperty('kraPin');
    return res.body.order.kraPin as string | null;
  }

  async function storedPin(id: string): Promise<unknown> {
    const doc = await db()
      .collection('orders')
      .findOne({ _id: new Types.ObjectId(id) });
    return doc?.kraPin;
  }

  function setProfile(c: Session, body: Record<string, unknown>) {
    return http()
      .patch('/api/users/profile')
      .set(bearer(c.accessToken))
      .send({ fullName: c.user.fullName, phoneNumber: '0712345678', ...body });
  }

  async function profilePin(c: Session): Promise<string | null> {
    const res = await http().get('/api/users/profile').set(bearer(c.accessToken)).expect(200);
    return res.body.user.kraPin as string | null;
  }

  it("a guest's order keeps the PIN trimmed and upper-cased, in the name as typed; only the detail shows it", async () => {
    const pin = newPin();
    const details = guest({ fullName: 'Achieng Otieno' });
    const res = await order({ kraPin: `  ${pin.toLowerCase()} ` }, undefined, details).expect(201);
    const o = res.body.order as PlacedOrder;

    expect(await storedPin(o._id)).toBe(pin);
    expect(await detailPin(o._id)).toBe(pin);
    const detail = await http().get(`/api/orders/${o._id}/detail`).set(staff()).expect(200);
    expect(detail.body.order.guestInfo.fullName).toBe('Achieng Otieno');
    expect(detail.body.order.customerName).toBe('Achieng Otieno');

    // The placing answer, the order, the lists and the CSV export stay as they were.
    expect(res.body.order).not.toHaveProperty('kraPin');
    const one = await http().get(`/api/orders/${o._id}`).set(staff()).expect(200);
    expect(one.body.order).not.toHaveProperty('kraPin');
    const list = await http()
      .get('/api/orders')
      .query({ search: o.purchaseNumber })
      .set(staff())
      .expect(200);
    expect(list.body.orders.map((x: PlacedOrder) => x.purchaseNumber)).toEqual([o.purchaseNumber]);
    expect(list.text).not.toContain(pin);
    const csv = await http()
      .get('/api/orders/export.csv')
      .query({ search: o.purchaseNumber })
      .set(staff())
      .expect(200);
    expect(csv.text).toContain(o.purchaseNumber);
    expect(csv.text).not.toContain(pin);

    // Without a PIN, or with an empty one: none.
    for (const body of [{}, { kraPin: '' }, { kraPin: '   ' }, { kraPin: null }]) {
      const none = await placed(body);
      expect(await detailPin(none._id)).toBeNull();
      expect(await storedPin(none._id)).toBeNull();
    }
  });

  it('a PIN of the wrong form is a 400 naming the field, and writes nothing', async () => {
    const orders = () => db().collection('orders').countDocuments({});
    const keys = () => db().collection('order_idempotency').countDocuments({});
    const before = {
      orders: await orders(),
      keys: await keys(),
      stock: await stockOf(t, world.productId),
    };
    const spellings: unknown[] = [
      'P05123456X', // 8 digits
      'P0512345678X', // 10 digits
      'B051234567X', // neither A nor P
      'P051234567', // no letter at the end
      'P 051234567X', // a blank inside
      'P051234567-',
      51234567,
    ];
    for (const [i, kraPin] of spellings.entries()) {
      const res = await http()
        .post('/api/orders')
        .set('Idempotency-Key', `bad-pin-${i}`)
        .send({ guestInfo: guest(), products: line(), kraPin })
        .expect(400);
      expect(res.body.message).toBe(KRA_PIN_MESSAGE);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['kraPin']);
    }
    expect({
      orders: await orders(),
      keys: await keys(),
      stock: await stockOf(t, world.productId),
    }).toEqual(before);
  });

  it("a customer's profile PIN is used when their checkout leaves it out; one given at checkout wins", async () => {
    const c = await registerCustomer(t);
    const pin = newPin();
    expect(await profilePin(c)).toBeNull();

    // The profile takes it trimmed and upper-cased; a wrong one is refused and changes nothing.
    const saved = await setProfile(c, { kraPin: ` ${pin.toLowerCase()}` }).expect(200);
    expect(saved.body.user.kraPin).toBe(pin);
    const bad = await setProfile(c, { kraPin: 'P05123456X', fullName: 'Other Name' }).expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['kraPin']);
    const profile = await http().get('/api/users/profile').set(bearer(c.accessToken)).expect(200);
    expect(profile.body.user).toMatchObject({ kraPin: pin, fullName: c.user.fullName });
    // Left out or null: unchanged.
    await setProfile(c, {}).expect(200);
    await setProfile(c, { kraPin: null }).expect(200);
    expect(await profilePin(c)).toBe(pin);

    const fromProfile = await placed({}, c.accessToken);
    expect(await detailPin(fromProfile._id, bearer(c.accessToken))).toBe(pin);
    expect(await detailPin(fromProfile._id)).toBe(pin);
    // With nothing typed at checkout but its saved delivery details: the same.
    const saveDetails = await setProfile(c, { county: 'Kiambu', streetAddress: 'Ruiru' }).expect(
      200,
    );
    expect(saveDetails.body.user.kraPin).toBe(pin);
    const bySaved = await http()
      .post('/api/orders')
      .set(bearer(c.accessToken))
      .send({ products: line() })
      .expect(201);
    expect(await storedPin(bySaved.body.order._id)).toBe(pin);

    const other = newPin();
    const given = await placed({ kraPin: other }, c.accessToken);
    expect(await detailPin(given._id)).toBe(other);
    const none = await placed({ kraPin: '' }, c.accessToken);
    expect(await detailPin(none._id)).toBeNull();
    // The checkout's PIN is the order's: the profile keeps its own.
    expect(await profilePin(c)).toBe(pin);

    // Empty in the profile: none, and the next checkout has none either.
    const cleared = await setProfile(c, { kraPin: '' }).expect(200);
    expect(cleared.body.user.kraPin).toBeNull();
    const after = await placed({}, c.accessToken);
    expect(await storedPin(after._id)).toBeNull();
    // The orders placed before keep theirs.
    expect(await storedPin(fromProfile._id)).toBe(pin);
  });

  it('another customer cannot read it', async () => {
    const owner = await registerCustomer(t);
    const stranger = await registerCustomer(t);
    const pin = newPin();
    await setProfile(owner, { kraPin: pin }).expect(200);
    const o = await placed({}, owner.accessToken);

    const as = bearer(stranger.accessToken);
    await http().get(`/api/orders/${o._id}/detail`).set(as).expect(404);
    await http().get(`/api/orders/${o._id}`).set(as).expect(404);
    await http().get(`/api/orders/user/${owner.user._id}`).set(as).expect(403);
    await http().get(`/api/user/${owner.user._id}`).set(as).expect(403);
    const own = await http().get('/api/orders/user').set(as).expect(200);
    expect(own.text).not.toContain(pin);
    expect(own.text).not.toContain(o.purchaseNumber);
    const profile = await http().get('/api/users/profile').set(as).expect(200);
    expect(profile.body.user.kraPin).toBeNull();
    // A guest's tracking tells the status, not the buyer.
    const tracked = await http()
      .get('/api/orders/track/new-order')
      .query({ purchaseNumber: o.purchaseNumber })
      .expect(200);
    expect(tracked.text).not.toContain(pin);
  });

  it("is in the customer's data export, and their erasure leaves it nowhere", async () => {
    const c = await registerCustomer(t);
    const [pin, typed] = [newPin(), newPin()];
    await setProfile(c, { kraPin: pin }).expect(200);
    const fromProfile = await placed({}, c.accessToken);
    const given = await placed({ kraPin: typed }, c.accessToken);

    const exported = await http()
      .get('/api/users/profile/data-export')
      .set(bearer(c.accessToken))
      .expect(200);
    const file = JSON.parse(exported.text);
    expect(file.account.kraPin).toBe(pin);
    const byNumber = Object.fromEntries(
      file.orders.map((o: { purchaseNumber: string; kraPin: string | null }) => [
        o.purchaseNumber,
        o.kraPin,
      ]),
    );
    expect(byNumber).toEqual({
      [fromProfile.purchaseNumber]: pin,
      [given.purchaseNumber]: typed,
    });

    // Settled (an open order holds the erasure back), then the account is deleted.
    for (const o of [fromProfile, given]) {
      await http()
        .patch(`/api/orders/complete-payment/${o._id}`)
        .set(staff())
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
        .expect(200);
      await http().patch(`/api/orders/inTransit/${o._id}`).set(staff()).expect(200);
      await http()
        .patch('/api/orders/confirm-delivery')
        .set(staff())
        .send({ orderId: o._id })
        .expect(200);
      await http().patch(`/api/orders/complete-order/${o._id}`).set(staff()).expect(200);
    }
    await http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: STRONG_PASSWORD })
      .expect(200);

    // The orders stay, whole, without it; the closed account has none.
    for (const o of [fromProfile, given]) {
      expect(await storedPin(o._id)).toBeNull();
      expect(await detailPin(o._id)).toBeNull();
      const kept = await http().get(`/api/orders/${o._id}`).set(staff()).expect(200);
      expect(kept.body.order).toMatchObject({
        totalAmount: o.totalAmount,
        orderStatus: 'Completed',
      });
    }
    const closed = await db()
      .collection('users')
      .findOne({ _id: new Types.ObjectId(c.user._id) });
    expect(closed?.kraPin ?? null).toBeNull();
    // Nothing anywhere names either PIN any more.
    const hits: string[] = [];
    for (const { name } of await db().listCollections().toArray()) {
      for await (const doc of db().collection(name).find({})) {
        const text = JSON.stringify(doc);
        if (text.includes(pin) || text.includes(typed)) hits.push(`${name}: ${text.slice(0, 200)}`);
      }
    }
    expect(hits).toEqual([]);
  });

  it("a guest's erasure takes it off their orders", async () => {
    // Erased as the retention sweep and a guest's request erase: through the orders' owner.
    const pin = newPin();
    const o = await placed({ kraPin: pin });
    const owner = t.app.get(OrdersPersonalData, { strict: false });
    const subject = {
      accountId: null,
      orderIds: [o._id],
      purchaseNumbers: [o.purchaseNumber],
      phones: [],
      emails: [],
      names: [],
      otherIds: [],
      proven: { emails: [], phones: [] },
    };
    const exported = await owner.export(subject);
    expect(exported.orders).toEqual([expect.objectContaining({ kraPin: pin })]);
    await owner.erase(subject);
    expect(await storedPin(o._id)).toBeNull();
  });
});
