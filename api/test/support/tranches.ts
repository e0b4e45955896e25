/**
 * Tranches of orders from quotations in the e2e suites (issue 43): the county's order of issue 42
 * (30,000 seedlings: 200 trays of ready stock, 12,000 and 8,000 singles on two growing batches),
 * its organisation's people, and what a clerk sends to plan, dispatch and sign for a tranche.
 */
import { randomInt } from 'node:crypto';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { checkStockLedger } from '../../../tools/stock/ledger-check';
import { addDays, shopDay } from '../../src/common/shop-clock';
import { OrderFromQuotationService } from '../../src/orders/order-from-quotation.service';
import { bearer, registerCustomer, type Session } from './identity';
import { addPerson, signUpOrganisation } from './organisations';
import { newAcacia, newBatch, quotationRequest, type Acacia } from './quotation-orders';
import type { ShopWorld } from './shop-world';
import type { TestApp } from './test-app';

/** The tranche routes, as the OpenAPI document names them; their role matrix is in order-tranches.e2e-spec.ts. */
export const TRANCHE_ROUTES = [
  'GET /api/orders/{id}/tranches',
  'POST /api/orders/{id}/tranches',
  'GET /api/orders/{id}/tranches/{number}',
  'PATCH /api/orders/{id}/tranches/{number}',
  'POST /api/orders/{id}/tranches/{number}/cancel',
  'POST /api/orders/{id}/tranches/{number}/dispatch',
  'POST /api/orders/{id}/tranches/{number}/delivery',
  'GET /api/orders/{id}/tranches/{number}/delivery-note.pdf',
  'GET /api/tranches',
  'GET /api/tranches/queue',
] as const;

/**
 * The routes of a tranche's signed note (its photo or scan), as the OpenAPI document names them;
 * who may call them is tested in order-tranche-signed-note.e2e-spec.ts.
 */
export const SIGNED_NOTE_ROUTES = [
  'PUT /api/orders/{id}/tranches/{number}/signed-note',
  'GET /api/orders/{id}/tranches/{number}/signed-note',
] as const;

/** A mobile number of its own (07 and 8 digits): each test's texts are told apart by it. */
export const mobile = () => `07${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
/** The number as texts go to it. */
export const msisdn = (phone: string) => `+254${phone.replace(/\s/g, '').slice(1)}`;

export interface TranchePeople {
  organisationId: string;
  approver: Session;
  buyer: Session;
}

/** An organisation signed up by its approver, with a buyer, approved, its credit set. */
export async function countyPeople(
  t: TestApp,
  world: ShopWorld,
  terms: { onAccount?: boolean } = {},
): Promise<TranchePeople> {
  const approver = await registerCustomer(t);
  const buyer = await registerCustomer(t);
  const org = await signUpOrganisation(t, approver);
  await t
    .http()
    .post(`/api/organisations/${org._id}/approve`)
    .set(bearer(world.staff.accessToken))
    .send({})
    .expect(201);
  await addPerson(t, org._id, approver, buyer, 'buyer');
  await t
    .http()
    .put(`/api/organisations/${org._id}/terms`)
    .set(bearer(world.admin.accessToken))
    .send({ paymentDays: 30, creditLimit: 50_000_000, onAccount: terms.onAccount ?? false })
    .expect(200);
  return { organisationId: org._id, approver, buyer };
}

export interface CountyOrder {
  orderId: string;
  purchaseNumber: string;
  lpoNumber: string;
  acacia: Acacia;
  first: { _id: string; readyOn: string };
  second: { _id: string; readyOn: string };
  people: TranchePeople;
  /** The three lines as a tranche names them (with `quantity` to fill in). */
  lines: {
    stock: { productId: string; unitId: string; batchId: null };
    first: { productId: string; unitId: string; batchId: string };
    second: { productId: string; unitId: string; batchId: string };
  };
}

/**
 * The county's order of issue 42: 200 trays of 50 from 15,000 seedlings of ready stock, 12,000
 * singles on a batch of 20,000 ready in 60 days and 8,000 on one of 10,000 ready in 90 days.
 */
export async function countyOrder(
  t: TestApp,
  world: ShopWorld,
  people?: TranchePeople,
  options: { onAccount?: boolean } = {},
): Promise<CountyOrder> {
  const acacia = await newAcacia(world, 15_000);
  const first = await newBatch(t, world, acacia._id, 20_000, 60);
  const second = await newBatch(t, world, acacia._id, 10_000, 90);
  const who = people ?? (await countyPeople(t, world));
  const request = quotationRequest(
    { organisationId: who.organisationId, approver: who.approver },
    [
      {
        productId: acacia._id,
        unitId: acacia.trayId,
        quantity: 200,
        unitPrice: 1200,
        batchId: null,
      },
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 12_000,
        unitPrice: 25,
        batchId: first._id,
      },
      {
        productId: acacia._id,
        unitId: acacia.singleId,
        quantity: 8_000,
        unitPrice: 25,
        batchId: second._id,
      },
    ],
    { onAccount: options.onAccount ?? false },
  );
  const order = await t.app.get(OrderFromQuotationService).place(request);
  return {
    orderId: order._id,
    purchaseNumber: order.purchaseNumber,
    lpoNumber: request.lpoNumber,
    acacia,
    first,
    second,
    people: who,
    lines: {
      stock: { productId: acacia._id, unitId: acacia.trayId, batchId: null },
      first: { productId: acacia._id, unitId: acacia.singleId, batchId: first._id },
      second: { productId: acacia._id, unitId: acacia.singleId, batchId: second._id },
    },
  };
}

/** A site of the county with its officer. */
export function site(phone = mobile(), name = 'Gatundu North planting site') {
  return {
    name,
    county: 'Kiambu',
    subCounty: 'Gatundu North',
    contact: { name: 'Peter Mwangi', phone },
  };
}

export const today = () => shopDay(new Date());
export const inDays = (n: number) => addDays(today(), n);

export interface TrancheBody {
  orderId: string;
  number: number;
  label: string;
  state: string;
  date: string;
  seedlings: number;
  site: { name: string; contact: { name: string; phone: string } };
  lines: {
    productId: string;
    unitId: string;
    batchId: string | null;
    quantity: number;
    dispatched: number | null;
    delivered: number | null;
    shortReason: string | null;
  }[];
  dispatchedAt: string | null;
  signedBy: string | null;
  signedAt: string | null;
}

export interface LineStanding {
  batchId: string | null;
  quantity: number;
  planned: number;
  onTheWay: number;
  delivered: number;
  toPlan: number;
}

/**
 * The stock ledger and the batches agree: every product and batch sums to what it holds, no batch
 * is overbooked, and each batch holds for the order exactly what its line holds less what left in
 * tranches and did not come back (`heldOn`, by batch id).
 */
export async function expectAgreement(
  t: TestApp,
  staff: Session,
  orderId: string,
  heldOn: Record<string, number>,
): Promise<void> {
  const db = t.app.get<Connection>(getConnectionToken()).db!;
  const check = await checkStockLedger(db);
  expect(check.differences).toEqual([]);
  expect(check.overbooked).toEqual([]);
  for (const [batchId, seedlings] of Object.entries(heldOn)) {
    const batch = (
      await t.http().get(`/api/batches/${batchId}`).set(bearer(staff.accessToken)).expect(200)
    ).body.batch as { orders: { orderId: string; seedlings: number }[] };
    const held = batch.orders.find((o) => o.orderId === orderId)?.seedlings ?? 0;
    expect({ batchId, held }).toEqual({ batchId, held: seedlings });
  }
}
