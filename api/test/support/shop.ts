import { randomBytes } from 'node:crypto';
import { bearer, uniqueEmail } from './identity';
import type { TestApp } from './test-app';

export { createCategory, createProduct } from './factories';

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

/** A guest's delivery details with a phone and e-mail of their own. */
export function guest(overrides: Partial<typeof DELIVERY> = {}) {
  const n = randomBytes(4).readUInt32BE() % 10_000_000;
  return {
    ...DELIVERY,
    phoneNumber: `07${String(n).padStart(8, '0')}`,
    email: uniqueEmail('guest'),
    ...overrides,
  };
}

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
