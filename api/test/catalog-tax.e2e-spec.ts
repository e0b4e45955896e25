/**
 * Tax per product (issue 45) against the real database: each product's KRA tax type and item
 * classification code, a sale unit's own tax type, and the shop's default tax type. Staff read them
 * at `GET /api/products/:id/tax`; the catalogue's public views leave them out. Bad input is a 400
 * that names the field and changes nothing.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import type { Role } from '@spc/shared-contracts';
import type request from 'supertest';
import {
  createCategory,
  createProduct,
  postProduct,
  productFields,
  putProduct,
  type CategoryBody,
  type ProductBody,
} from './support/factories';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { TAX_ROUTES } from './support/tax';
import { createTestApp, type TestApp } from './support/test-app';

interface UnitTax {
  _id: string;
  name: string;
  taxType: string | null;
  effectiveTaxType: string | null;
}
interface ProductTax {
  productId: string;
  taxType: string | null;
  itemClassCode: string | null;
  shopDefaultTaxType: string | null;
  effectiveTaxType: string | null;
  units: UnitTax[];
}

const TRAY = { name: 'Tray of 50', seedlings: 50, price: 1500 };

describe('tax per product', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let category: CategoryBody;

  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const as = (s: Session) => bearer(s.accessToken);
  const fieldErrors = (body: { errors?: { field: string; messages: string[] }[] }) =>
    (body.errors ?? []).map((e) => [e.field, e.messages[0]]);

  async function taxOf(id: string): Promise<ProductTax> {
    const res = await t.http().get(`/api/products/${id}/tax`).set(as(staff)).expect(200);
    expect(res.body.message).toBe('Product tax retrieved');
    return res.body.tax as ProductTax;
  }
  const setDefault = (defaultTaxType: string | null) =>
    t.http().put('/api/tax/settings').set(as(admin)).send({ defaultTaxType });
  const storedProducts = () => db().collection('products').countDocuments();
  const storedProduct = (id: string) =>
    db()
      .collection('products')
      .findOne({ _id: new Types.ObjectId(id) });

  beforeAll(async () => {
    t = await createTestApp({ name: 'catalog_tax', env: { ...UNTHROTTLED } });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken, { fullName: 'Grace Njeri' });
    customer = await registerCustomer(t);
    category = await createCategory(t, admin.accessToken, { name: 'Vegetables' });
  });
  afterAll(() => t.close());

  describe('before the admin sets anything', () => {
    it('starts at B, the standard rate, and lists KRA’s five types', async () => {
      const res = await t.http().get('/api/tax/settings').set(as(staff)).expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Tax settings retrieved',
        settings: {
          defaultTaxType: 'B',
          updatedAt: null,
          taxTypes: [
            { code: 'A', label: 'Exempt', rate: 0 },
            { code: 'B', label: 'Standard rate 16 %', rate: 16 },
            { code: 'C', label: 'Zero-rated 0 %', rate: 0 },
            { code: 'D', label: 'Non-VAT', rate: 0 },
            { code: 'E', label: 'Reduced rate 8 %', rate: 8 },
          ],
        },
      });
    });
  });

  describe('who may read and set tax', () => {
    // The product's tax (GET /api/products/{id}/tax) is in the catalog's matrix (catalog-access).
    it('lets staff and the admin read the settings; only the admin sets the default', async () => {
      const calls: Record<(typeof TAX_ROUTES)[number], () => request.Test> = {
        'GET /api/tax/settings': () => t.http().get('/api/tax/settings'),
        'PUT /api/tax/settings': () =>
          t.http().put('/api/tax/settings').send({ defaultTaxType: 'B' }),
      };
      const allowed: Record<(typeof TAX_ROUTES)[number], Role[]> = {
        'GET /api/tax/settings': ['admin', 'staff'],
        'PUT /api/tax/settings': ['admin'],
      };
      const sessions: Record<Role, Session> = { admin, staff, customer };
      for (const route of TAX_ROUTES) {
        expect([route, (await calls[route]()).status]).toEqual([route, 401]);
        for (const role of ['admin', 'staff', 'customer'] as Role[]) {
          const res = await calls[route]().set(as(sessions[role]));
          expect([route, role, res.status]).toEqual([
            route,
            role,
            allowed[route].includes(role) ? 200 : 403,
          ]);
        }
      }
    });

    it('covers every tax route the API documents', async () => {
      const doc = await t.http().get('/api/docs-json').expect(200);
      const documented = Object.entries(doc.body.paths as Record<string, object>)
        .filter(([path]) => path.startsWith('/api/tax/'))
        .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
      expect(documented.sort()).toEqual([...TAX_ROUTES].sort());
    });
  });

  describe('a product’s tax type and item classification code', () => {
    it('keeps the tax type and code set in the form, and shows them to staff only', async () => {
      const product = await createProduct(t, staff.accessToken, category._id, {
        taxType: 'E',
        itemClassCode: '5059690800',
      });
      expect(await taxOf(product._id)).toEqual({
        productId: product._id,
        taxType: 'E',
        itemClassCode: '5059690800',
        shopDefaultTaxType: 'B',
        effectiveTaxType: 'E',
        units: [
          { _id: product._id, name: 'Single seedling', taxType: null, effectiveTaxType: 'E' },
        ],
      });
      // The shop's public views carry none of it.
      const shown = (await t.http().get(`/api/products/${product._id}`).expect(200)).body.product;
      expect(shown).not.toHaveProperty('taxType');
      expect(shown).not.toHaveProperty('itemClassCode');
      expect(shown.units[0]).not.toHaveProperty('taxType');
      expect(product).not.toHaveProperty('taxType');

      // Changed, then sent empty: back to the shop's default, no classification.
      await putProduct(t, staff.accessToken, product._id, {
        taxType: 'A',
        itemClassCode: '14111400',
      }).expect(200);
      expect(await taxOf(product._id)).toMatchObject({
        taxType: 'A',
        itemClassCode: '14111400',
        effectiveTaxType: 'A',
      });
      // Left out, they stay.
      await putProduct(t, staff.accessToken, product._id, { price: 400 }).expect(200);
      expect(await taxOf(product._id)).toMatchObject({ taxType: 'A', itemClassCode: '14111400' });
      await putProduct(t, staff.accessToken, product._id, {
        taxType: '',
        itemClassCode: '',
      }).expect(200);
      expect(await taxOf(product._id)).toMatchObject({
        taxType: null,
        itemClassCode: null,
        effectiveTaxType: 'B',
      });
      const trail = await t.http().get('/api/audit-logs').set(as(admin)).expect(200);
      expect(trail.body.map((e: { message: string }) => e.message)).toContain(
        `Grace Njeri updated product "${product.productName}" (tax type, item classification code)`,
      );
    });

    it('gives a product sent without a tax type the shop’s default', async () => {
      const product = await createProduct(t, admin.accessToken, category._id);
      expect(await taxOf(product._id)).toMatchObject({
        taxType: null,
        itemClassCode: null,
        shopDefaultTaxType: 'B',
        effectiveTaxType: 'B',
      });
    });

    it.each([
      [{ taxType: 'F' }, 'taxType', 'Tax type must be one of A, B, C, D, E (KRA eTIMS tax types)'],
      [{ taxType: 'b' }, 'taxType', 'Tax type must be one of A, B, C, D, E (KRA eTIMS tax types)'],
      [{ taxType: '16' }, 'taxType', 'Tax type must be one of A, B, C, D, E (KRA eTIMS tax types)'],
      [
        { itemClassCode: '1234567' },
        'itemClassCode',
        "Item classification code must be KRA's code: 8 or 10 digits",
      ],
      [
        { itemClassCode: '50596908OO' },
        'itemClassCode',
        "Item classification code must be KRA's code: 8 or 10 digits",
      ],
      [
        { itemClassCode: ' 14111400' },
        'itemClassCode',
        "Item classification code must be KRA's code: 8 or 10 digits",
      ],
    ])(
      'refuses %j (%s) on a new product and on a change, changing nothing',
      async (bad, field, message) => {
        const before = await storedProducts();
        const res = await postProduct(
          t,
          staff.accessToken,
          productFields(category._id, bad as Record<string, string>),
        ).expect(400);
        expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED', message });
        expect(fieldErrors(res.body)).toEqual([[field, message]]);
        expect(await storedProducts()).toBe(before);

        const product = await createProduct(t, staff.accessToken, category._id, {
          taxType: 'C',
          itemClassCode: '5059690800',
        });
        const change = await putProduct(t, staff.accessToken, product._id, {
          price: 999,
          ...(bad as Record<string, string>),
        }).expect(400);
        expect(fieldErrors(change.body)).toEqual([[field, message]]);
        expect(await taxOf(product._id)).toMatchObject({
          taxType: 'C',
          itemClassCode: '5059690800',
        });
        expect((await storedProduct(product._id))?.price).toBe(350);
      },
    );

    it('answers 404 for the tax of a product that does not exist', async () => {
      const res = await t
        .http()
        .get('/api/products/665f1c2b9d3e4a0012345678/tax')
        .set(as(staff))
        .expect(404);
      expect(res.body.message).toBe('No product with this id');
    });
  });

  describe('a sale unit’s own tax type', () => {
    let product: ProductBody & { units: { _id: string; name: string }[] };

    beforeAll(async () => {
      product = (await createProduct(t, staff.accessToken, category._id, {
        taxType: 'B',
        units: JSON.stringify([
          { name: 'Single seedling', seedlings: 1 },
          { ...TRAY, taxType: 'E' },
        ]),
      })) as typeof product;
    });

    it('taxes a unit at its own type, the others at the product’s', async () => {
      const tray = product.units[1]!;
      expect((await taxOf(product._id)).units).toEqual([
        { _id: product._id, name: 'Single seedling', taxType: null, effectiveTaxType: 'B' },
        { _id: tray._id, name: 'Tray of 50', taxType: 'E', effectiveTaxType: 'E' },
      ]);
      // The public view of the units does not carry it.
      const shown = (await t.http().get(`/api/products/${product._id}`).expect(200)).body.product;
      expect(shown.units[1]).toEqual(
        expect.objectContaining({ _id: tray._id, name: 'Tray of 50' }),
      );
      expect(shown.units[1]).not.toHaveProperty('taxType');
      const list = await t.http().get('/api/products').query({ search: product.productName });
      expect(list.body.products[0].units[1]).not.toHaveProperty('taxType');
    });

    it('refuses a unit’s tax type outside A–E, changing nothing', async () => {
      const tray = product.units[1]!;
      const res = await putProduct(t, staff.accessToken, product._id, {
        units: JSON.stringify([product.units[0], { ...TRAY, _id: tray._id, taxType: 'Z' }]),
      }).expect(400);
      expect(fieldErrors(res.body)).toEqual([
        ['units.1.taxType', 'Tax type must be one of A, B, C, D, E (KRA eTIMS tax types)'],
      ]);
      expect((await taxOf(product._id)).units[1]).toMatchObject({ taxType: 'E' });
    });

    it('moves a unit to its product’s type when sent without one, and follows the product', async () => {
      const tray = product.units[1]!;
      await putProduct(t, staff.accessToken, product._id, {
        units: JSON.stringify([product.units[0], { ...TRAY, _id: tray._id, taxType: 'A' }]),
      }).expect(200);
      expect((await taxOf(product._id)).units[1]).toMatchObject({
        taxType: 'A',
        effectiveTaxType: 'A',
      });
      await putProduct(t, staff.accessToken, product._id, {
        taxType: 'C',
        units: JSON.stringify([product.units[0], { ...TRAY, _id: tray._id }]),
      }).expect(200);
      const tax = await taxOf(product._id);
      expect(tax.units.map((u) => [u.name, u.taxType, u.effectiveTaxType])).toEqual([
        ['Single seedling', null, 'C'],
        ['Tray of 50', null, 'C'],
      ]);
      // Nothing of a unit's tax type is left in the stored unit.
      const stored = await storedProduct(product._id);
      expect(stored?.units[1]).not.toHaveProperty('taxType');
    });
  });

  describe('the shop’s default tax type', () => {
    afterAll(async () => {
      await setDefault('B').expect(200);
    });

    it('taxes the products without a type of their own at the default the admin sets', async () => {
      const plain = await createProduct(t, staff.accessToken, category._id, {
        units: JSON.stringify([
          { name: 'Single seedling', seedlings: 1 },
          { ...TRAY, taxType: 'A' },
        ]),
      });
      const own = await createProduct(t, staff.accessToken, category._id, { taxType: 'C' });

      const res = await setDefault('E').expect(200);
      expect(res.body).toMatchObject({
        message: 'Tax settings saved',
        settings: { defaultTaxType: 'E', updatedAt: expect.any(String) },
      });
      const tax = await taxOf(plain._id);
      expect(tax).toMatchObject({ shopDefaultTaxType: 'E', effectiveTaxType: 'E' });
      expect(tax.units.map((u) => u.effectiveTaxType)).toEqual(['E', 'A']);
      expect(await taxOf(own._id)).toMatchObject({ effectiveTaxType: 'C' });

      const trail = await t.http().get('/api/audit-logs').set(as(admin)).expect(200);
      expect(trail.body).toContainEqual(
        expect.objectContaining({
          action: 'tax.settings.update',
          message: `${admin.user.fullName} changed the shop's default tax type: B · Standard rate 16 % → E · Reduced rate 8 %`,
        }),
      );
    });

    it.each([[{ defaultTaxType: 'F' }], [{ defaultTaxType: 'e' }], [{ defaultTaxType: 8 }], [{}]])(
      'refuses %j, changing nothing',
      async (body) => {
        const before = (await t.http().get('/api/tax/settings').set(as(admin))).body.settings;
        const res = await t.http().put('/api/tax/settings').set(as(admin)).send(body).expect(400);
        expect(res.body).toMatchObject({
          code: 'VALIDATION_FAILED',
          message: 'The default tax type must be one of A, B, C, D, E, or null for none',
        });
        expect((await t.http().get('/api/tax/settings').set(as(admin))).body.settings).toEqual(
          before,
        );
      },
    );

    it('refuses a product without a tax type while the shop has none, changing nothing', async () => {
      const legacy = await createProduct(t, staff.accessToken, category._id);
      await setDefault(null).expect(200);
      expect((await t.http().get('/api/tax/settings').set(as(staff))).body.settings).toMatchObject({
        defaultTaxType: null,
      });
      expect(await taxOf(legacy._id)).toMatchObject({
        taxType: null,
        shopDefaultTaxType: null,
        effectiveTaxType: null,
      });

      const message =
        'Choose a tax type for this product: the shop has no default tax type (set one under tax settings)';
      const before = await storedProducts();
      for (const taxType of [undefined, '']) {
        const res = await postProduct(
          t,
          staff.accessToken,
          productFields(category._id, { taxType }),
        ).expect(400);
        expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
        expect(fieldErrors(res.body)).toEqual([['taxType', message]]);
      }
      expect(await storedProducts()).toBe(before);

      // A product that relied on the default cannot be changed until it has a type of its own.
      const change = await putProduct(t, staff.accessToken, legacy._id, { price: 420 }).expect(400);
      expect(change.body.message).toBe(message);
      expect((await storedProduct(legacy._id))?.price).toBe(350);
      await putProduct(t, staff.accessToken, legacy._id, { price: 420, taxType: 'D' }).expect(200);
      expect(await taxOf(legacy._id)).toMatchObject({ taxType: 'D', effectiveTaxType: 'D' });
      expect((await storedProduct(legacy._id))?.price).toBe(420);

      // Its own type is enough.
      await createProduct(t, staff.accessToken, category._id, { taxType: 'A' });
      expect(await storedProducts()).toBe(before + 1);
    });
  });
});
