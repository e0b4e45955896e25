/**
 * Sale units (issue 29) against the real database: units, minimums, steps and quantity tiers set in
 * the product form and checked there; every order line priced by the server (tiers and offers);
 * quantities off a unit's step or under its minimum refused; a tray and singles sold from one stock
 * of seedlings without overselling, 200 orders at once; a cancelled tray order giving its seedlings
 * back to the ledger; and the migration of a database of the old shape.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import type { SaleUnit } from '@spc/shared-contracts';
import { checkStockLedger } from '../../tools/stock/ledger-check';
import { migrateSaleUnits } from '../src/catalog/migrations/sale-units.migration';
import { putProduct, postProduct, productFields } from './support/factories';
import { bearer, UNTHROTTLED } from './support/identity';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { guest, placeOrder, stockOf } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';

type Unit = SaleUnit;
interface UnitProduct {
  _id: string;
  productName: string;
  price: number;
  productQuantity: number;
  units: Unit[];
  fromPrice: number;
}
type Line = { _id: string; quantity: number; unitId?: string; price?: number };

const TRAY_50 = {
  name: 'Tray of 50',
  seedlings: 50,
  price: 1500,
  sku: 'TOM-T50',
  tiers: [
    { minQuantity: 10, price: 1350 },
    { minQuantity: 50, price: 1200 },
  ],
};

describe('sale units', () => {
  let t: TestApp;
  let world: ShopWorld;
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const staffToken = () => world.staff.accessToken;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'sale_units',
      env: { ...UNTHROTTLED, ORDER_MAX_UNITS_PER_LINE: '5000' },
    });
    world = await createShopWorld(t);
  });
  afterAll(() => t.close());

  /** A product sold singly (at least `singles.minQuantity`, in `singles.step`) and by the tray. */
  async function trayProduct(
    options: { stock?: number; price?: number; singles?: object; units?: object[] } = {},
  ): Promise<UnitProduct> {
    const units = options.units ?? [
      { name: 'Single seedling', seedlings: 1, ...options.singles },
      TRAY_50,
    ];
    const res = await postProduct(
      t,
      staffToken(),
      productFields(world.category._id, {
        price: options.price ?? 40,
        productQuantity: options.stock ?? 5_000,
        units: JSON.stringify(units),
      }),
    );
    expect({ status: res.status, body: res.status === 201 ? {} : res.body }).toEqual({
      status: 201,
      body: {},
    });
    return res.body.product as UnitProduct;
  }
  const getProduct = async (id: string) =>
    (await t.http().get(`/api/products/${id}`).expect(200)).body.product as UnitProduct;
  const order = (lines: Line[]) => placeOrder(t, lines, { guestInfo: guest() });
  const ordersCount = () => db().collection('orders').countDocuments({});

  it('keeps units and tiers set in the product form, and shows them in the product and the list', async () => {
    const p = await trayProduct({ singles: { minQuantity: 10, step: 10 } });
    expect(p.units).toEqual([
      expect.objectContaining({
        _id: p._id,
        name: 'Single seedling',
        seedlings: 1,
        price: 40,
        minQuantity: 10,
        step: 10,
        tiers: [],
      }),
      expect.objectContaining({ ...TRAY_50, offerPrice: 0, minQuantity: 1, step: 1 }),
    ]);
    expect(p.units[1]!._id).toMatch(/^[0-9a-f]{24}$/);
    // 1,200 a tray of 50 at 50+ trays: KES 24 a seedling, below the single's 40.
    expect(p.fromPrice).toBe(24);
    expect(await getProduct(p._id)).toEqual(p);
    const list = await t
      .http()
      .get(`/api/products?search=${encodeURIComponent(p.productName)}`)
      .expect(200);
    expect(list.body.products).toEqual([
      expect.objectContaining({ units: p.units, fromPrice: 24 }),
    ]);
  });

  it('gives a product sent without units its single seedling, priced by the product', async () => {
    const plain = world.product as unknown as UnitProduct;
    const p = await getProduct(plain._id);
    expect(p.units).toEqual([
      {
        _id: p._id,
        name: 'Single seedling',
        seedlings: 1,
        price: 100,
        offerPrice: 0,
        sku: '',
        minQuantity: 1,
        step: 1,
        tiers: [],
      },
    ]);
    expect(p.fromPrice).toBe(100);
  });

  it.each([
    [
      'overlapping tiers',
      [
        { minQuantity: 10, price: 1350 },
        { minQuantity: 10, price: 1300 },
      ],
      'units.1.tiers.1.minQuantity',
      'Two tiers start at the same quantity: they overlap',
    ],
    [
      'unordered tiers',
      [
        { minQuantity: 50, price: 1200 },
        { minQuantity: 10, price: 1100 },
      ],
      'units.1.tiers.1.minQuantity',
      'Tiers must go up: each starts at a larger quantity than the one before',
    ],
    [
      'a tier price below zero',
      [{ minQuantity: 10, price: -5 }],
      'units.1.tiers.0.price',
      'Price must be more than 0',
    ],
    [
      'a tier dearer than the price',
      [{ minQuantity: 10, price: 1600 }],
      'units.1.tiers.0.price',
      "A tier's price must be lower than the price before it",
    ],
  ])('refuses %s (400) and changes nothing', async (_name, tiers, field, message) => {
    const p = await trayProduct();
    const res = await putProduct(t, staffToken(), p._id, {
      units: JSON.stringify([p.units[0], { ...p.units[1], tiers }]),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'VALIDATION_FAILED' });
    expect(res.body.errors).toEqual([{ field, messages: [message] }]);
    expect(await getProduct(p._id)).toEqual(p);
  });

  it('refuses a unit with no seedlings, a negative price, a first unit that is not a single seedling, and a unit id not of this product', async () => {
    const p = await trayProduct();
    const other = await trayProduct();
    const cases: [object[], string, string][] = [
      [
        [p.units[0], { ...TRAY_50, seedlings: 0 }],
        'units.1.seedlings',
        'A unit must hold at least 1 seedling',
      ],
      [[p.units[0], { ...TRAY_50, price: -1 }], 'units.1.price', 'Price must be more than 0'],
      [
        [{ name: 'Tray', seedlings: 50 }],
        'units.0.seedlings',
        'The first unit is the single seedling: it holds 1 seedling',
      ],
      [
        [p.units[0], { ...TRAY_50, _id: other.units[1]!._id }],
        'units.1._id',
        'A unit _id must be the id of one of this product’s units',
      ],
      [[], 'units', 'A product needs at least one unit: its single seedling'],
    ];
    for (const [units, field, message] of cases) {
      const res = await putProduct(t, staffToken(), p._id, { units: JSON.stringify(units) });
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 400,
        body: { message, errors: [{ field, messages: [message] }] },
      });
    }
    const created = await postProduct(
      t,
      staffToken(),
      productFields(world.category._id, { units: 'not json' }),
    );
    expect(created.status).toBe(400);
    expect(await getProduct(p._id)).toEqual(p);
  });

  it('prices each line by its tier or its offer, whichever is lower, ignoring the client figures', async () => {
    const p = await trayProduct({ price: 40, stock: 20_000 });
    const tray = p.units[1]!;
    const cases: [number, number, { minQuantity: number; price: number } | null][] = [
      [9, 1500, null],
      [10, 1350, { minQuantity: 10, price: 1350 }],
      [12, 1350, { minQuantity: 10, price: 1350 }],
      [50, 1200, { minQuantity: 50, price: 1200 }],
    ];
    for (const [quantity, unitPrice, tier] of cases) {
      const res = await order([{ _id: p._id, unitId: tray._id, quantity, price: 1 }]);
      expect(res.status).toBe(201);
      expect(res.body.order.products).toEqual([
        expect.objectContaining({
          unit: { _id: tray._id, name: 'Tray of 50', seedlings: 50 },
          tier,
          unitPrice,
          quantity,
          lineTotal: unitPrice * quantity,
        }),
      ]);
      expect(res.body.order.subtotal).toBe(unitPrice * quantity);
    }
    // An offer of 1,300 a tray: below the 10+ tier (1,350), above the 50+ one (1,200).
    const offered = await putProduct(t, staffToken(), p._id, {
      units: JSON.stringify([p.units[0], { ...tray, offerPrice: 1300 }]),
    });
    expect(offered.status).toBe(200);
    const atTen = await order([{ _id: p._id, unitId: tray._id, quantity: 10 }]);
    expect(atTen.body.order.products[0]).toMatchObject({ unitPrice: 1300, tier: null });
    const atFifty = await order([{ _id: p._id, unitId: tray._id, quantity: 50 }]);
    expect(atFifty.body.order.products[0]).toMatchObject({
      unitPrice: 1200,
      tier: { minQuantity: 50, price: 1200 },
    });
    // The single seedling's offer is the product's: on offer at 30, below its tier of 35 from 100.
    await putProduct(t, staffToken(), p._id, {
      onOffer: true,
      offerPrice: 30,
      units: JSON.stringify([
        { ...p.units[0], tiers: [{ minQuantity: 100, price: 35 }] },
        { ...tray, offerPrice: 1300 },
      ]),
    }).expect(200);
    const singles = await order([{ _id: p._id, quantity: 100, price: 1 }]);
    expect(singles.body.order.products[0]).toMatchObject({
      unit: { _id: p._id, name: 'Single seedling', seedlings: 1 },
      unitPrice: 30,
      tier: null,
    });
  });

  it('refuses a quantity under the minimum or off the step (400), naming the line, and changes nothing', async () => {
    const p = await trayProduct({ singles: { minQuantity: 10, step: 10 }, stock: 1000 });
    const before = await ordersCount();
    for (const [quantity, message] of [
      [3, `${p.productName}, Single seedling: at least 10 (you asked for 3)`],
      [15, `${p.productName}, Single seedling: in steps of 10 from 10 (10 or 20, not 15)`],
    ] as const) {
      const res = await order([{ _id: p._id, quantity }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        message,
        code: 'VALIDATION_FAILED',
        errors: [{ field: `products.${p._id}`, messages: [message] }],
      });
    }
    // Two lines of singles make one line of 20: allowed.
    const ok = await order([
      { _id: p._id, quantity: 10 },
      { _id: p._id, unitId: p._id, quantity: 10 },
    ]);
    expect(ok.status).toBe(201);
    expect(ok.body.order.products).toHaveLength(1);
    expect(ok.body.order.products[0]).toMatchObject({ quantity: 20 });
    expect(await ordersCount()).toBe(before + 1);
    expect(await stockOf(t, p._id)).toBe(1000 - 20);
  });

  it('refuses a unit of another product or a deleted unit (400), and keeps placed orders as placed when a unit changes', async () => {
    const p = await trayProduct({ stock: 1000 });
    const other = await trayProduct();
    const tray = p.units[1]!;
    const placed = await order([{ _id: p._id, unitId: tray._id, quantity: 2 }]);
    expect(placed.status).toBe(201);

    const foreign = await order([{ _id: p._id, unitId: other.units[1]!._id, quantity: 2 }]);
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain(`is not one of ${p.productName}'s units`);

    // The tray dearer, then deleted: the open order keeps its price and unit as placed.
    await putProduct(t, staffToken(), p._id, {
      units: JSON.stringify([p.units[0], { ...tray, price: 1900, tiers: [] }]),
    }).expect(200);
    await putProduct(t, staffToken(), p._id, { units: JSON.stringify([p.units[0]]) }).expect(200);
    const gone = await order([{ _id: p._id, unitId: tray._id, quantity: 2 }]);
    expect(gone.status).toBe(400);
    expect(await stockOf(t, p._id)).toBe(1000 - 100);

    const kept = await t
      .http()
      .get(`/api/orders/${placed.body.order._id}`)
      .set(bearer(staffToken()))
      .expect(200);
    expect(kept.body.order.products[0]).toMatchObject({
      unit: { _id: tray._id, name: 'Tray of 50', seedlings: 50 },
      unitPrice: 1500,
      lineTotal: 3000,
    });
  });

  it('returns 50 seedlings a tray to the ledger when a tray order is cancelled', async () => {
    const p = await trayProduct({ stock: 500 });
    const res = await order([
      { _id: p._id, unitId: p.units[1]!._id, quantity: 2 },
      { _id: p._id, quantity: 7 },
    ]);
    expect(res.status).toBe(201);
    expect(await stockOf(t, p._id)).toBe(500 - 107);
    await t
      .http()
      .patch(`/api/orders/cancel/${res.body.order._id}`)
      .set(bearer(staffToken()))
      .send({})
      .expect(200);
    expect(await stockOf(t, p._id)).toBe(500);
    const movements = (
      await t
        .http()
        .get(`/api/stock/products/${p._id}/movements?limit=100`)
        .set(bearer(staffToken()))
        .expect(200)
    ).body.movements as { reason: string; change: number }[];
    expect(
      movements.filter((m) => m.reason !== 'opening').map((m) => [m.reason, m.change]),
    ).toEqual([
      ['return', 107],
      ['sale', -107],
    ]);
  });

  it('never oversells a tray of 50 and singles ordered 200 ways at once from one stock', async () => {
    const stock = 2_000;
    const p = await trayProduct({ stock });
    const tray = p.units[1]!._id;
    // Each order asks for 20 to 100 seedlings: a tray, singles, or both (demand about 3× the stock).
    const shapes: Line[][] = [
      [{ _id: p._id, unitId: tray, quantity: 1 }],
      [{ _id: p._id, quantity: 20 }],
      [
        { _id: p._id, unitId: tray, quantity: 1 },
        { _id: p._id, quantity: 50 },
      ],
      [{ _id: p._id, unitId: tray, quantity: 2 }],
    ];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => order(shapes[i % shapes.length]!)),
    );
    // 503 is an honest answer too: on a loaded CI machine the Python SecantusDB paused past the
    // driver's 2.5 s server selection for 2 of the 200 (CI of stop 56). What is asserted is that
    // nothing is oversold and the ledger agrees, whoever was turned away.
    const answered = [201, 409, 503];
    expect(answers.filter((r) => !answered.includes(r.status)).map((r) => r.body)).toEqual([]);
    const sold = answers
      .filter((r) => r.status === 201)
      .reduce(
        (n, r) =>
          n +
          (r.body.order.products as { quantity: number; unit: { seedlings: number } }[]).reduce(
            (m, l) => m + l.quantity * l.unit.seedlings,
            0,
          ),
        0,
      );
    const left = await stockOf(t, p._id);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(sold + left).toBe(stock);
    // Nothing left that a refused order could have had (the smallest order takes 20).
    expect(left).toBeLessThan(100);
    expect((await checkStockLedger(db())).differences).toEqual([]);
  }, 120_000);

  it('migrates a database of the old shape: every product gets its single seedling, once', async () => {
    const products = db().collection('products');
    const oldId = new Types.ObjectId();
    await products.insertOne({
      _id: oldId,
      productName: 'Old Pawpaw',
      productDescription: '',
      price: 120,
      initialPrice: 120,
      offerPrice: 90,
      onOffer: true,
      effectivePrice: 90,
      productQuantity: 30,
      category: new Types.ObjectId(world.category._id),
      productImage: '',
      productImages: {},
      searchText: 'old pawpaw\n',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    // Every product of the world is stored with units already; the old one is not.
    const first = await migrateSaleUnits(db());
    expect(first.migrated).toBe(1);
    const stored = await products.findOne({ _id: oldId });
    expect(stored!.units).toEqual([
      {
        _id: oldId.toString(),
        name: 'Single seedling',
        seedlings: 1,
        price: 120,
        offerPrice: 90,
        sku: '',
        minQuantity: 1,
        step: 1,
        tiers: [],
      },
    ]);
    expect(stored!.productQuantity).toBe(30);
    const again = await migrateSaleUnits(db());
    expect(again).toEqual({ migrated: 0, alreadyMigrated: first.migrated + first.alreadyMigrated });

    // An old client's line still means the single seedling, at the offer price.
    const res = await placeOrder(t, [{ _id: oldId.toString(), quantity: 3 }], {
      guestInfo: guest(),
    });
    expect(res.status).toBe(201);
    expect(res.body.order.products[0]).toMatchObject({
      unit: { _id: oldId.toString(), name: 'Single seedling', seedlings: 1 },
      unitPrice: 90,
      quantity: 3,
    });
    // An order line stored before units reads as single seedlings.
    const legacy = new Types.ObjectId();
    await db()
      .collection('orders')
      .insertOne({
        ...(await db()
          .collection('orders')
          .findOne({ _id: new Types.ObjectId(res.body.order._id) })),
        _id: legacy,
        purchaseNumber: 'SPDUNITS234',
        holdSlots: undefined,
        products: [
          {
            productId: oldId.toString(),
            productName: 'Old Pawpaw',
            productImage: '',
            unitPrice: 120,
            quantity: 2,
            lineTotal: 240,
          },
        ],
      });
    const read = await t.http().get(`/api/orders/${legacy}`).set(bearer(staffToken())).expect(200);
    expect(read.body.order.products[0]).toMatchObject({
      unit: { _id: oldId.toString(), name: 'Single seedling', seedlings: 1 },
      tier: null,
    });
  });
});
