/** Quotations in the e2e suites: their routes, an approved organisation with its people, a product sold by the tray. */
import type { Response } from 'supertest';
import type { OrganisationView, QuotationView } from '@spc/shared-contracts';
import { addDays, shopDay } from '../../src/common/shop-clock';
import { bearer, registerCustomer, type Session } from './identity';
import { addPerson, signUpOrganisation } from './organisations';
import type { ShopWorld } from './shop-world';
import type { TestApp } from './test-app';

/** The quotation routes as the OpenAPI document names them (quotations-access.e2e-spec.ts tests who may call them). */
export const QUOTATION_ROUTES = [
  'POST /api/quotations',
  'GET /api/quotations',
  'GET /api/quotations/awaiting-shop/count',
  'GET /api/quotations/{id}',
  'PUT /api/quotations/{id}/draft',
  'POST /api/quotations/{id}/send',
  'GET /api/quotations/{id}/versions/{version}/pdf',
  'POST /api/quotations/{id}/messages',
  'POST /api/quotations/{id}/ask-changes',
  'POST /api/quotations/{id}/decline',
  'POST /api/quotations/{id}/withdraw',
  'POST /api/quotations/{id}/accept',
] as const;
export type QuotationRoute = (typeof QUOTATION_ROUTES)[number];

export interface Buyers {
  org: OrganisationView;
  approver: Session;
  buyer: Session;
}

/** A county signed up by its approver, approved by staff, with a buyer invited and joined. */
export async function approvedOrganisation(
  t: TestApp,
  world: ShopWorld,
  name = 'Kiambu County Government',
): Promise<Buyers> {
  const approver = await registerCustomer(t);
  const buyer = await registerCustomer(t);
  const signed = await signUpOrganisation(t, approver, { name });
  await t
    .http()
    .post(`/api/organisations/${signed._id}/approve`)
    .set(bearer(world.staff.accessToken))
    .expect(201);
  const org = await addPerson(t, signed._id, approver, buyer, 'buyer');
  return { org, approver, buyer };
}

export interface TrayProduct {
  productId: string;
  singleId: string;
  trayId: string;
}

/** A product sold singly (KES `price`) and by the tray of 50 (KES 1,500; 1,350 from 10 trays). */
export async function trayProduct(
  t: TestApp,
  world: ShopWorld,
  quantity: number,
  name = 'Grevillea robusta',
): Promise<TrayProduct> {
  const made = await world.createProduct({
    name,
    quantity,
    price: 40,
    fields: {
      units: JSON.stringify([
        { name: 'Single seedling', seedlings: 1 },
        {
          name: 'Tray of 50',
          seedlings: 50,
          price: 1500,
          tiers: [{ minQuantity: 10, price: 1350 }],
        },
      ]),
    },
  });
  const res = await t.http().get(`/api/products/${made._id}`).expect(200);
  const units = res.body.product.units as { _id: string; seedlings: number }[];
  return {
    productId: made._id,
    singleId: units.find((u) => u.seedlings === 1)!._id,
    trayId: units.find((u) => u.seedlings === 50)!._id,
  };
}

export const quotationOf = (res: { body: { quotation: QuotationView } }) => res.body.quotation;

/** A delivery site in Kiambu, `days` from today. */
export function site(date: string) {
  return {
    siteName: 'Gatundu North planting site',
    county: 'Kiambu',
    streetAddress: 'Kamwangi, behind the sub-county office',
    date,
  };
}

/**
 * The shop prices a quotation as asked (`lines`, no fee, delivered in 10 days, valid for 30) and
 * sends it as `staff`: version 1 waits for the organisation.
 */
export async function priceAndSend(
  t: TestApp,
  staff: Session,
  quotationId: string,
  lines: { productId: string; unitId: string; quantity: number }[],
): Promise<void> {
  const today = shopDay(new Date());
  await t
    .http()
    .put(`/api/quotations/${quotationId}/draft`)
    .set(bearer(staff.accessToken))
    .send({
      lines,
      delivery: site(addDays(today, 10)),
      deliveryFee: 0,
      validUntil: addDays(today, 30),
    })
    .expect(200);
  await t
    .http()
    .post(`/api/quotations/${quotationId}/send`)
    .set(bearer(staff.accessToken))
    .expect(201);
}

/** supertest buffers an application/pdf body as binary with this parser. */
export function binary(res: Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** The text of a PDF's content streams (the journeys read PDFs with it too). */
export { pdfText } from '../../../tools/e2e/pdf-text';
