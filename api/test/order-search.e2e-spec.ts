/**
 * The orders search on many orders: a name thousands share answers its pages without counting
 * them all (the total stops at ORDER_SEARCH_COUNT_LIMIT and says it is a lower bound, yet every
 * page forward and back is there, each order once), and a search of two words is read by the key
 * of their pair, which the migration gives to orders written before it.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { ORDER_SEARCH_COUNT_LIMIT, PURCHASE_NUMBER } from '@spc/shared-contracts';
import { migrateContactKeys } from '../src/orders/migrations/contact-keys.migration';
import { bearer, registerCustomer, type Session } from './support/identity';
import { guest, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

interface ListAnswer {
  orders: { _id: string; guestInfo: { fullName: string } }[];
  totalOrders: number;
  totalIsLowerBound: boolean;
  totalPages: number;
  page: number;
}

/** A purchase number no placement makes (its code starts with ZZ), distinct per `i`. */
function numberOf(i: number): string {
  const { alphabet, length, prefix } = PURCHASE_NUMBER;
  let code = '';
  for (let n = i, k = 0; k < length - 2; k++, n = Math.floor(n / alphabet.length))
    code = alphabet[n % alphabet.length] + code;
  return `${prefix}ZZ${code}`;
}

describe('the orders search on many orders', () => {
  let t: TestApp;
  let staff: Session;
  let admin: Session;
  let customer: Session;
  let productId: string;
  /** The orders of the contact "Zawadi Boundary", newest first, as placed and copied. */
  let ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ name: 'order_search' });
    ({ staff, admin, productId } = await createShopWorld(t, {
      product: { price: 100, quantity: 100_000 },
    }));
    customer = await registerCustomer(t);
    // Someone else's order, and the one of the contact many orders share.
    await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }).expect(201);
    const placed = (
      await placeOrder(t, [{ _id: productId, quantity: 1 }], {
        guestInfo: guest({ fullName: 'Zawadi Boundary' }),
      }).expect(201)
    ).body.order as { _id: string };
    // One more than the bound: copies of the order as the API wrote it, an hour apart, older (six
    // weeks of them: a search newest first is counted in windows of days).
    const orders = db().collection('orders');
    const template = await orders.findOne({ _id: new Types.ObjectId(placed._id) });
    const { _id: _omit, holdSlots: _slots, ...fields } = template!;
    const copies = Array.from({ length: ORDER_SEARCH_COUNT_LIMIT }, (_, i) => ({
      ...fields,
      ledgerSettled: true,
      stockReturn: 'none',
      _id: new Types.ObjectId(),
      purchaseNumber: numberOf(i),
      orderDate: new Date(template!.orderDate.getTime() - (i + 1) * 3_600_000),
    }));
    // In hundreds: one write of a thousand orders and their indexes can outlast the driver's
    // 45 s socket timeout on a loaded machine (a clean-clone CI run saw it).
    for (let i = 0; i < copies.length; i += 100) await orders.insertMany(copies.slice(i, i + 100));
    ids = [placed._id, ...copies.map((c) => String(c._id))];
  });
  afterAll(() => t.close());

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const list = async (query: Record<string, string | number>, token = staff.accessToken) =>
    (await t.http().get('/api/orders').query(query).set(bearer(token)).expect(200))
      .body as ListAnswer;

  it('counts a search up to its bound, then says the total is a lower bound', async () => {
    for (const search of ['boundary', 'Zawadi Boundary', 'zaw bou'])
      expect(await list({ search, limit: 20 })).toMatchObject({
        totalOrders: ORDER_SEARCH_COUNT_LIMIT,
        totalIsLowerBound: true,
        totalPages: ORDER_SEARCH_COUNT_LIMIT / 20,
      });
    // A search matching few orders, and the lists without a search, are counted exactly.
    expect(await list({ search: 'Achieng' })).toMatchObject({ totalIsLowerBound: false });
    const all = await list({ limit: 1 });
    expect(all).toMatchObject({ totalOrders: ids.length + 1, totalIsLowerBound: false });
  });

  it('pages forward and back over a bounded search, every order once', async () => {
    const seen: string[] = [];
    const answers: ListAnswer[] = [];
    // Forward while a next page exists: within the pages counted, or past a lower bound.
    for (let page = 1; ; page++) {
      const answer = await list({ search: 'zawadi boundary', limit: 100, page });
      answers.push(answer);
      seen.push(...answer.orders.map((o) => o._id));
      if (!(page < answer.totalPages || answer.totalIsLowerBound)) break;
    }
    expect(seen).toEqual(ids);
    // The bound follows the page asked for: page 10 still says more follow, page 11 counts them.
    expect(answers.map((a) => [a.totalOrders, a.totalIsLowerBound])).toEqual([
      ...Array.from({ length: 10 }, () => [ORDER_SEARCH_COUNT_LIMIT, true]),
      [ids.length, false],
    ]);
    const back: string[] = [];
    for (let page = answers.length; page >= 1; page--)
      back.unshift(
        ...(await list({ search: 'zawadi boundary', limit: 100, page })).orders.map((o) => o._id),
      );
    expect(back).toEqual(ids);
  });

  it('says the total is exact once no more than the bound match', async () => {
    await t
      .http()
      .delete(`/api/orders/delete/${ids[0]}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    ids = ids.slice(1);
    expect(await list({ search: 'boundary' })).toMatchObject({
      totalOrders: ORDER_SEARCH_COUNT_LIMIT,
      totalIsLowerBound: false,
    });
  });

  it("answers a customer's own orders with their exact total", async () => {
    await placeOrder(t, [{ _id: productId, quantity: 1 }], {
      token: customer.accessToken,
      guestInfo: guest(),
    }).expect(201);
    const own = (
      await t.http().get('/api/orders/user').set(bearer(customer.accessToken)).expect(200)
    ).body as ListAnswer;
    expect(own).toMatchObject({ totalOrders: 1, totalIsLowerBound: false, totalPages: 1 });
  });

  it('gives orders written before the word pairs their keys, so two words find them', async () => {
    const orders = db().collection('orders');
    // As an order of the last version has them: the words' keys, no pair.
    const older = ids.slice(0, 5).map((id) => new Types.ObjectId(id));
    for (const _id of older) {
      const doc = await orders.findOne({ _id });
      await orders.updateOne(
        { _id },
        { $set: { contactKeys: (doc!.contactKeys as string[]).filter((k) => !k.includes(' ')) } },
      );
    }
    const before = await list({ search: 'Zawadi Boundary', limit: 10 });
    expect(before.orders.map((o) => o._id)).toEqual(ids.slice(5, 15));
    const first = await migrateContactKeys(db());
    expect(first.migrated).toBe(older.length);
    const keys = await orders.find({ _id: { $in: older } }).toArray();
    for (const doc of keys) expect(doc.contactKeys).toContain('bou zaw');
    expect(await migrateContactKeys(db())).toMatchObject({ migrated: 0 });
    const found = await list({ search: 'Zawadi Boundary', limit: 10 });
    expect(found.orders.map((o) => o._id)).toEqual(ids.slice(0, 10));
  });
});
