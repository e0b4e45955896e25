import { randomBytes } from 'node:crypto';
import { bearer } from './identity';
import type { TestApp } from './test-app';

export interface ProductFixture {
  _id: string;
  productName: string;
  price: number;
  offerPrice?: number;
  onOffer: boolean;
  productQuantity: number;
}

export async function createCategory(
  t: TestApp,
  token: string,
  name = `Category ${randomBytes(3).toString('hex')}`,
): Promise<{ _id: string; name: string }> {
  const res = await t
    .http()
    .post('/api/categories')
    .set(bearer(token))
    .send({ name, description: `${name} seedlings` });
  if (res.status !== 201)
    throw new Error(`create category failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.category;
}

/** A product through the real multipart endpoint (no image). */
export async function createProduct(
  t: TestApp,
  token: string,
  category: string,
  overrides: Partial<{
    productName: string;
    price: number;
    productQuantity: number;
    onOffer: boolean;
    offerPrice: number;
  }> = {},
): Promise<ProductFixture> {
  const fields = {
    productName: `Hass Avocado ${randomBytes(3).toString('hex')}`,
    productDescription: 'Grafted, 60 cm, ready to plant',
    price: 250,
    productQuantity: 20,
    onOffer: false,
    ...overrides,
  };
  let req = t.http().post('/api/products').set(bearer(token));
  for (const [k, v] of Object.entries({ ...fields, initialPrice: fields.price, category }))
    req = req.field(k, String(v));
  const res = await req;
  if (res.status !== 201)
    throw new Error(`create product failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}

export async function stockOf(t: TestApp, productId: string): Promise<number> {
  const res = await t.http().get(`/api/products/${productId}`).expect(200);
  return res.body.product.productQuantity;
}

export const DELIVERY = {
  fullName: 'Achieng Otieno',
  phoneNumber: '0722000111',
  email: 'achieng@example.co.ke',
  county: 'Kiambu',
  subCounty: 'Ruiru',
  ward: 'Gitothua',
  streetAddress: 'Kamakis, near the stage',
};

export function placeOrder(
  t: TestApp,
  items: { _id: string; quantity: number }[],
  options: { token?: string; guestInfo?: object | null; key?: string } = {},
) {
  let req = t.http().post('/api/orders');
  if (options.token) req = req.set(bearer(options.token));
  if (options.key) req = req.set('Idempotency-Key', options.key);
  return req.send({
    guestInfo: options.guestInfo === undefined ? DELIVERY : options.guestInfo,
    products: items,
    placedBy: null,
  });
}
