/**
 * The catalog's products and the inventory's stock calls as the orders module uses them, against the
 * real database: single conditional updates, so concurrent orders can never oversell or leave stock
 * negative.
 */
import { CatalogService } from '../src/catalog/catalog.service';
import { InventoryService } from '../src/inventory/inventory.service';
import {
  createCategory,
  createProduct,
  tempUploadsDir,
  type ProductBody,
} from './support/factories';
import { bearer, createStaff, signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import { placeOrder } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';

describe('catalog stock for orders', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let catalog: CatalogService;
  let inventory: InventoryService;
  let categoryId: string;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;

  const stockOf = async (id: string) =>
    (await t.http().get(`/api/products/${id}`).expect(200)).body.product.productQuantity as number;
  const product = (overrides: Record<string, string | number | boolean> = {}) =>
    createProduct(t, admin.accessToken, categoryId, overrides);

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_stock',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
    });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
    catalog = t.app.get(CatalogService);
    inventory = t.app.get(InventoryService);
    categoryId = (await createCategory(t, admin.accessToken, { name: 'Fruits' }))._id;
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  it('gives an order what it needs of each product, prices from the catalog', async () => {
    const plain = await product({
      productName: 'Pawpaw Solo Sunrise',
      price: 120,
      productQuantity: 8,
    });
    const offer = await product({ price: 300, onOffer: true, offerPrice: 250 });
    const found = await catalog.findForOrder([
      plain._id,
      offer._id.toUpperCase(),
      'bad',
      '665f1c2b9d3e4a0012345678',
    ]);
    expect(found.sort((a, b) => a.price - b.price)).toEqual([
      {
        _id: plain._id,
        productName: 'Pawpaw Solo Sunrise',
        productImage: '',
        price: 120,
        offerPrice: 0,
        onOffer: false,
        effectivePrice: 120,
        productQuantity: 8,
        // Issue 29: the units an order line may name; the single seedling at the product's price.
        units: [
          {
            _id: plain._id,
            name: 'Single seedling',
            seedlings: 1,
            price: 120,
            offerPrice: 0,
            sku: '',
            minQuantity: 1,
            step: 1,
            tiers: [],
          },
        ],
      },
      expect.objectContaining({ _id: offer._id, price: 300, onOffer: true, effectivePrice: 250 }),
    ]);
    expect(await catalog.findForOrder([])).toEqual([]);
  });

  it('never sells more than there is, however many orders arrive at once', async () => {
    const { _id } = await product({ productQuantity: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(t, [{ _id, quantity: 1 }])),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(5);
    expect(results.filter((res) => res.status === 409)).toHaveLength(15);
    expect(await stockOf(_id)).toBe(0);
  });

  it('takes nothing when asked for more than is left, and returns stock', async () => {
    const { _id } = await product({ productQuantity: 3 });
    await placeOrder(t, [{ _id, quantity: 4 }]).expect(409);
    expect(await stockOf(_id)).toBe(3);
    const order = (await placeOrder(t, [{ _id, quantity: 3 }]).expect(201)).body.order;
    expect(await stockOf(_id)).toBe(0);
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({})
      .expect(200);
    expect(await stockOf(_id)).toBe(3);
    expect(await inventory.reserveStock('665f1c2b9d3e4a0012345678', 'order-x', 1)).toBe(false);
    expect(await inventory.restock('not-an-id', 'order-x', 1)).toBe(false);
  });

  it('refuses quantities that are not whole numbers above zero', async () => {
    const { _id } = await product();
    for (const quantity of [0, -2, 1.5, Number.NaN]) {
      await expect(inventory.reserveStock(_id, 'order-q', quantity)).rejects.toThrow(
        'Quantity must be a whole number more than 0',
      );
      await expect(inventory.restock(_id, 'order-q', quantity)).rejects.toThrow();
    }
    expect(await stockOf(_id)).toBe(40);
  });

  describe('reservations', () => {
    let item: ProductBody;
    beforeEach(async () => {
      item = await product({ productQuantity: 10 });
    });

    it('reserves for an order once, and settles it keeping the stock taken', async () => {
      expect(await inventory.reserveStock(item._id, 'order-1', 4)).toBe(true);
      expect(await inventory.reserveStock(item._id, 'order-1', 4)).toBe(true); // a retry
      expect(await stockOf(item._id)).toBe(6);
      expect(await inventory.settleReservation(item._id, 'order-1')).toBe(true);
      expect(await inventory.releaseReservation(item._id, 'order-1')).toBe(false);
      expect(await stockOf(item._id)).toBe(6);
    });

    it('releases an unfinished reservation once, even when released twice at the same time', async () => {
      expect(await inventory.reserveStock(item._id, 'order-2', 7)).toBe(true);
      expect(await inventory.reserveStock(item._id, 'order-3', 4)).toBe(false); // only 3 left
      const released = await Promise.all([
        inventory.releaseReservation(item._id, 'order-2'),
        inventory.releaseReservation(item._id, 'order-2'),
      ]);
      expect(released.filter(Boolean)).toHaveLength(1);
      expect(await stockOf(item._id)).toBe(10);
    });

    it('never oversells across concurrent reservations', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => inventory.reserveStock(item._id, `order-c${i}`, 3)),
      );
      expect(results.filter(Boolean)).toHaveLength(3);
      expect(await stockOf(item._id)).toBe(1);
    });

    it('returns a cancelled order’s stock once, however often it is retried', async () => {
      expect(await inventory.restock(item._id, 'order-4', 5)).toBe(true);
      expect(await inventory.restock(item._id, 'order-4', 5)).toBe(false);
      expect(await stockOf(item._id)).toBe(15);
      expect(await inventory.clearRestockMarker(item._id, 'order-4')).toBe(true);
      expect(await inventory.clearRestockMarker(item._id, 'order-4')).toBe(false);
    });
  });
});
