/**
 * Orders from accepted quotations in the e2e suites: an approved organisation with its credit
 * limit, a product sold singly and by the tray, growing batches, and the request an acceptance
 * makes of the orders (as the quotations module will).
 */
import { randomUUID } from 'node:crypto';
import { addDays, shopDay } from '../../src/common/shop-clock';
import type { QuotationOrderRequest } from '../../src/orders/order-from-quotation.service';
import type { ProductBody } from './factories';
import { bearer, registerCustomer, type Session } from './identity';
import { signUpOrganisation } from './organisations';
import { DELIVERY } from './shop';
import type { ShopWorld } from './shop-world';
import type { TestApp } from './test-app';

export interface BatchView {
  _id: string;
  readyOn: string;
  booked: number;
  available: number;
  quantity: number;
  bookings: { orderId: string }[];
  orders: { orderId: string; purchaseNumber: string; seedlings: number }[];
}

export interface Acacia {
  _id: string;
  singleId: string;
  trayId: string;
}

/** A product with `quantity` seedlings of ready stock, singly at KES 40, by the tray of 50 at 1,500. */
export async function newAcacia(world: ShopWorld, quantity: number): Promise<Acacia> {
  const units = [
    { name: 'Single seedling', seedlings: 1 },
    { name: 'Tray of 50', seedlings: 50, price: 1500, sku: `Q-T50-${randomUUID().slice(0, 8)}` },
  ];
  const made = (await world.createProduct({
    name: `Acacia ${randomUUID().slice(0, 6)}`,
    price: 40,
    quantity,
    fields: { units: JSON.stringify(units) },
  })) as ProductBody & { units: { _id: string; seedlings: number }[] };
  return {
    _id: made._id,
    singleId: made.units.find((u) => u.seedlings === 1)!._id,
    trayId: made.units.find((u) => u.seedlings === 50)!._id,
  };
}

/** A growing batch of `started` seedlings, ready in `readyIn` days, made by the world's clerk. */
export async function newBatch(
  t: TestApp,
  world: ShopWorld,
  productId: string,
  started: number,
  readyIn: number,
): Promise<BatchView> {
  const today = shopDay(new Date());
  const res = await t
    .http()
    .post('/api/batches')
    .set(bearer(world.staff.accessToken))
    .send({ productId, sownOn: addDays(today, -10), readyOn: addDays(today, readyIn), started })
    .expect(201);
  return res.body.batch as BatchView;
}

export interface ApprovedOrganisation {
  organisationId: string;
  approver: Session;
}

/** An organisation a customer signed up, approved by staff, its credit limit set by an admin. */
export async function approvedOrganisation(
  t: TestApp,
  world: ShopWorld,
  creditLimit: number,
): Promise<ApprovedOrganisation> {
  const approver = await registerCustomer(t);
  const org = await signUpOrganisation(t, approver);
  await t
    .http()
    .post(`/api/organisations/${org._id}/approve`)
    .set(bearer(world.staff.accessToken))
    .send({})
    .expect(201);
  await t
    .http()
    .put(`/api/organisations/${org._id}/terms`)
    .set(bearer(world.admin.accessToken))
    .send({ paymentDays: 30, creditLimit, onAccount: false })
    .expect(200);
  return { organisationId: org._id, approver };
}

/** What the approver's acceptance of a fresh quotation asks of the orders (a KES 2,500 delivery). */
export function quotationRequest(
  org: ApprovedOrganisation,
  lines: QuotationOrderRequest['lines'],
  overrides: Partial<QuotationOrderRequest> = {},
): QuotationOrderRequest {
  const { approver } = org;
  return {
    quotationId: randomUUID(),
    version: 2,
    organisationId: org.organisationId,
    actor: { id: approver.user._id, role: 'customer', fullName: approver.user.fullName },
    buyerAccountId: approver.user._id,
    lines,
    delivery: { ...DELIVERY, fullName: 'Joseph Kariuki' },
    deliveryFee: 2500,
    lpoNumber: `LPO/${randomUUID().slice(0, 8)}`,
    onAccount: false,
    ...overrides,
  };
}

/** What a call refused with: its status and body, as the accept route would answer them. */
export async function refusal(placing: Promise<unknown>) {
  const error = (await placing.then(
    () => null,
    (e: unknown) => e,
  )) as { getStatus(): number; getResponse(): unknown } | null;
  if (!error) throw new Error('expected a refusal');
  return { status: error.getStatus(), body: error.getResponse() as Record<string, unknown> };
}
