import { placeOrder } from './support/shop';
import {
  createCategory,
  createProduct,
  putProduct,
  tempUploadsDir,
  type CategoryBody,
  type ProductBody,
} from './support/factories';
import { bearer, signInAdmin, UNTHROTTLED, type Session } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

describe('the product list', () => {
  let t: TestApp;
  let admin: Session;
  let uploads: Awaited<ReturnType<typeof tempUploadsDir>>;
  let vegetables: CategoryBody;
  let fruits: CategoryBody;
  let forestry: CategoryBody;
  const p: Record<string, ProductBody> = {};

  const list = async (query = '') => (await t.http().get(`/api/products${query}`).expect(200)).body;
  const names = (body: { products: ProductBody[] }) => body.products.map((x) => x.productName);

  beforeAll(async () => {
    uploads = await tempUploadsDir();
    t = await createTestApp({
      name: 'catalog_list',
      env: { ...UNTHROTTLED, UPLOADS_DIR: uploads.dir },
    });
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await uploads.remove();
  });

  it('answers an empty catalogue with zeros', async () => {
    expect(await list()).toEqual({
      success: true,
      message: 'Products retrieved',
      products: [],
      categories: [],
      totalProducts: 0,
      totalsPerCategory: {},
      totalPages: 0,
      totalFilteredProducts: 0,
      page: 1,
      limit: 12,
      priceRange: { min: 0, max: 0 },
    });
  });

  describe('with a catalogue', () => {
    beforeAll(async () => {
      const token = admin.accessToken;
      vegetables = await createCategory(t, token, { name: 'Vegetables' });
      fruits = await createCategory(t, token, { name: 'Fruits' });
      forestry = await createCategory(t, token, { name: 'Forestry' });
      const make = async (key: string, category: CategoryBody, fields: Record<string, unknown>) => {
        p[key] = await createProduct(t, token, category._id, fields as Record<string, string>);
      };
      // Created in this order; effective prices 150, 500, 180, 300, 150, 200.
      await make('sukuma', vegetables, {
        productName: 'Sukuma Wiki (Collard) Tray of 50',
        price: 150,
      });
      await make('tomato', vegetables, {
        productName: 'Tomato Anna F1 Tray of 50',
        price: 650,
        onOffer: true,
        offerPrice: 500,
      });
      await make('onion', vegetables, {
        productName: 'Onion Red Creole',
        productDescription: 'Pungent red bulbs that store for months',
        price: 180,
      });
      await make('hass', fruits, { productName: 'Hass Avocado Grafted Seedling', price: 300 });
      await make('banana', fruits, { productName: 'Tissue Culture Banana (Williams)', price: 150 });
      await make('mango', fruits, {
        productName: 'Apple Mango [Grafted] 2 L',
        price: 1000,
        onOffer: true,
        offerPrice: 200,
      });
    });

    it('lists newest first, with every category, the counts and the price range', async () => {
      const body = await list();
      expect(names(body)).toEqual([
        'Apple Mango [Grafted] 2 L',
        'Tissue Culture Banana (Williams)',
        'Hass Avocado Grafted Seedling',
        'Onion Red Creole',
        'Tomato Anna F1 Tray of 50',
        'Sukuma Wiki (Collard) Tray of 50',
      ]);
      expect(body).toMatchObject({
        totalProducts: 6,
        totalFilteredProducts: 6,
        totalPages: 1,
        page: 1,
        limit: 12,
        priceRange: { min: 150, max: 500 },
        totalsPerCategory: { [vegetables._id]: 3, [fruits._id]: 3, [forestry._id]: 0 },
      });
      expect(body.categories.map((c: CategoryBody) => [c.name, c.productCount])).toEqual([
        ['Forestry', 0],
        ['Fruits', 3],
        ['Vegetables', 3],
      ]);
      expect(body.products[0].category).toEqual({ _id: fruits._id, name: 'Fruits' });
    });

    it('filters on the effective price, inclusive at both ends', async () => {
      const body = await list('?minPrice=150&maxPrice=300&sortBy=price');
      expect(names(body)).toEqual([
        'Sukuma Wiki (Collard) Tray of 50',
        'Tissue Culture Banana (Williams)',
        'Onion Red Creole',
        'Apple Mango [Grafted] 2 L', // price 1000, on offer at 200
        'Hass Avocado Grafted Seedling',
      ]);
      expect(body.totalFilteredProducts).toBe(5);
      expect(names(await list('?minPrice=151&maxPrice=299&sortBy=price'))).toEqual([
        'Onion Red Creole',
        'Apple Mango [Grafted] 2 L',
      ]);
      // The tomato costs 650 but sells at 500.
      expect(names(await list('?minPrice=600'))).toEqual([]);
      expect(names(await list('?minPrice=500&maxPrice=500'))).toEqual([
        'Tomato Anna F1 Tray of 50',
      ]);
    });

    it('sorts by the effective price both ways, ties in creation order', async () => {
      const asc = await list('?sortBy=price&sortOrder=asc');
      expect(asc.products.map((x: ProductBody) => x.effectivePrice)).toEqual([
        150, 150, 180, 200, 300, 500,
      ]);
      expect(names(asc).slice(0, 2)).toEqual([
        'Sukuma Wiki (Collard) Tray of 50',
        'Tissue Culture Banana (Williams)',
      ]);
      const desc = await list('?sortBy=price&sortOrder=desc');
      expect(desc.products.map((x: ProductBody) => x.effectivePrice)).toEqual([
        500, 300, 200, 180, 150, 150,
      ]);
      expect(names(await list('?sortOrder=asc'))[0]).toBe('Sukuma Wiki (Collard) Tray of 50');
    });

    it('searches name or description, any case, as literal text', async () => {
      expect(names(await list('?search=SUKUMA'))).toEqual(['Sukuma Wiki (Collard) Tray of 50']);
      expect(names(await list('?search=pungent'))).toEqual(['Onion Red Creole']);
      expect(names(await list('?name=hass%20%20%20avocado'))).toEqual([
        'Hass Avocado Grafted Seedling',
      ]);
      expect(names(await list(`?search=${encodeURIComponent('(Williams)')}`))).toEqual([
        'Tissue Culture Banana (Williams)',
      ]);
      expect(names(await list(`?search=${encodeURIComponent('[Grafted]')}`))).toEqual([
        'Apple Mango [Grafted] 2 L',
      ]);
      expect(names(await list(`?search=${encodeURIComponent('(')}&sortBy=price`))).toEqual([
        'Sukuma Wiki (Collard) Tray of 50',
        'Tissue Culture Banana (Williams)',
      ]);
      expect((await list(`?search=${encodeURIComponent('.*')}`)).totalFilteredProducts).toBe(0);
      expect((await list(`?search=${encodeURIComponent('[')}`)).products).toHaveLength(1);
      expect((await list(`?search=${encodeURIComponent('\\')}`)).products).toHaveLength(0);
    });

    it('answers a catastrophic-backtracking pattern at once, as text that matches nothing', async () => {
      const started = Date.now();
      const hostile = encodeURIComponent(`(a+)+$${'a'.repeat(40)}!`.slice(0, 100));
      const body = await list(`?search=${hostile}`);
      expect(body.totalFilteredProducts).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('counts per category under the other filters, not the category one', async () => {
      const body = await list(`?category=${vegetables._id}&maxPrice=200`);
      expect(names(body)).toEqual(['Onion Red Creole', 'Sukuma Wiki (Collard) Tray of 50']);
      expect(body).toMatchObject({
        totalFilteredProducts: 2,
        totalProducts: 6,
        totalsPerCategory: { [vegetables._id]: 2, [fruits._id]: 2, [forestry._id]: 0 },
      });
      const searched = await list(`?category=${fruits._id}&search=tray`);
      expect(searched.products).toEqual([]);
      expect(searched.totalsPerCategory).toEqual({
        [vegetables._id]: 2,
        [fruits._id]: 0,
        [forestry._id]: 0,
      });
      // A category id nobody has: an empty page, not an error.
      expect((await list('?category=665f1c2b9d3e4a0012345678')).products).toEqual([]);
    });

    it('pages with ceil(total / limit) pages', async () => {
      const first = await list('?limit=4&sortBy=price');
      expect(first.products).toHaveLength(4);
      expect(first).toMatchObject({ totalPages: 2, page: 1, limit: 4, totalFilteredProducts: 6 });
      const second = await list('?limit=4&page=2&sortBy=price');
      expect(second.products.map((x: ProductBody) => x.effectivePrice)).toEqual([300, 500]);
      expect((await list('?limit=4&page=3')).products).toEqual([]);
      expect((await list('?limit=100')).products).toHaveLength(6);
    });

    it('treats empty query values as absent', async () => {
      expect(
        (await list('?search=&category=&minPrice=&maxPrice=&sortBy=')).totalFilteredProducts,
      ).toBe(6);
    });

    it.each([
      ['?category=vegetables', 'category must be a category id'],
      ['?minPrice=abc', 'minPrice must be a whole number of shillings'],
      ['?maxPrice=12.5', 'maxPrice must be a whole number of shillings'],
      ['?minPrice=-1', 'minPrice cannot be negative'],
      ['?minPrice=500&maxPrice=100', 'minPrice cannot be more than maxPrice'],
      ['?sortBy=name', 'sortBy must be price or createdAt'],
      ['?sortOrder=up', 'sortOrder must be asc or desc'],
      ['?limit=101', 'limit must be at most 100'],
      ['?page=0', 'page must be 1 or more'],
      ['?search=a&search=b', 'search must be text'],
      [`?search=${'x'.repeat(101)}`, 'search must be at most 100 characters'],
      ['?colour=green', 'property colour should not exist'],
    ])('answers %s with 400 "%s"', async (query, message) => {
      const res = await t.http().get(`/api/products${query}`).expect(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400, message });
    });

    describe('cache', () => {
      it('shows every catalog write at once, though answers are cached', async () => {
        const query = `?category=${fruits._id}&sortBy=price`;
        const before = await list(query);
        const hass = before.products.find((x: ProductBody) => x._id === p.hass!._id);
        expect(hass.productQuantity).toBe(40);

        await t
          .http()
          .patch(`/api/products/check-stock/${p.hass!._id}`)
          .set(bearer(admin.accessToken))
          .expect(200);
        const afterStock = await list(query);
        expect(
          afterStock.products.find((x: ProductBody) => x._id === p.hass!._id).productQuantity,
        ).toBe(0);

        await putProduct(t, admin.accessToken, p.hass!._id, { price: '900' }).expect(200);
        const afterPrice = await list(query);
        expect(afterPrice.priceRange).toEqual({ min: 150, max: 900 });
        expect(names(afterPrice).at(-1)).toBe('Hass Avocado Grafted Seedling');

        const added = await createProduct(t, admin.accessToken, fruits._id, { price: 50 });
        const afterCreate = await list(query);
        expect(afterCreate.totalProducts).toBe(7);
        expect(afterCreate.products[0]._id).toBe(added._id);

        await t
          .http()
          .put(`/api/categories/update/${fruits._id}`)
          .set(bearer(admin.accessToken))
          .send({ name: 'Fruit Trees' })
          .expect(200);
        const afterRename = await list(query);
        expect(afterRename.products[0].category.name).toBe('Fruit Trees');

        await t
          .http()
          .delete(`/api/products/delete/${added._id}`)
          .set(bearer(admin.accessToken))
          .expect(200);
        expect((await list(query)).totalProducts).toBe(6);

        // Stock taken by an order shows at once too.
        await t
          .http()
          .patch(`/api/products/update-stock/${p.banana!._id}`)
          .set(bearer(admin.accessToken))
          .send({ productQuantity: 5 })
          .expect(200);
        await list(query);
        await placeOrder(t, [{ _id: p.banana!._id, quantity: 2 }]).expect(201);
        const afterOrder = await list(query);
        expect(
          afterOrder.products.find((x: ProductBody) => x._id === p.banana!._id).productQuantity,
        ).toBe(3);
      });
    });
  });
});
