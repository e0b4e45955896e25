import { invoiceNumber } from '@spc/shared-contracts';
import { ObjectId, type Db } from 'mongodb';
import { shopDay } from '../../src/common/shop-clock';
import { bearer } from './identity';
import type { MpesaTestApp } from './mpesa';
import { approvedOrganisation, type Buyers } from './quotations';
import type { ShopWorld } from './shop-world';
import { waitFor } from './wait';

/** The invoices' settlement routes (issue 44): staff and admin only; their access is tested in invoices-settle. */
export const INVOICE_SETTLEMENT_ROUTES = [
  'POST /api/invoices/{id}/payments',
  'POST /api/invoices/{id}/withholding',
  'POST /api/invoices/{id}/credit-notes',
] as const;

/**
 * A numbered, open whole-order invoice of `owner` written straight into the invoices (one line
 * worth `total`, due in 30 days; of a made-up order unless told), for the settlement tests.
 */
export async function insertOpenInvoice<T>(
  db: Db,
  owner: { _id: string; name: string; kraPin: string },
  total: number,
  n: number,
  orderId: string = new ObjectId().toHexString(),
): Promise<T> {
  const doc = {
    _id: new ObjectId(),
    number: invoiceNumber(n),
    organisationId: owner._id,
    organisationName: owner.name,
    organisationKraPin: owner.kraPin,
    shopName: 'Seedlings Plant Centre',
    shopKraPin: 'P051234567Q',
    orderId,
    purchaseNumber: `SPC-${70_000 + n}`,
    lpoNumber: `KCG/LPO/2026/${n}`,
    tranche: null,
    trancheKey: 'order',
    site: { name: 'Gatundu North planting site', county: 'Kiambu', subCounty: '' },
    lines: [
      {
        line: 0,
        productName: 'Grevillea robusta',
        unitName: 'Tray of 50',
        quantity: 1,
        unitPrice: total,
        amount: total,
      },
    ],
    fee: 0,
    total,
    issuedAt: new Date(),
    dueDate: shopDay(new Date(Date.now() + 30 * 24 * 3_600_000)),
    paid: 0,
    withheld: 0,
    credited: 0,
    excess: 0,
    balance: total,
    state: 'Open',
    settlements: [],
    reminders: [],
    rev: 0,
    byId: '',
    byName: '',
    byRole: 'system',
  };
  await db.collection('invoices').insertOne(doc as never);
  return doc as unknown as T;
}

/**
 * Approved organisations that order on account (30 days, KES 5,000,000), once the API has
 * registered its paybill URLs with the simulator (a paybill payment is validated from then on).
 */
export async function organisationsOnAccount(
  m: MpesaTestApp,
  world: ShopWorld,
  names: string[],
): Promise<Buyers[]> {
  const made: Buyers[] = [];
  for (const name of names) {
    const o = await approvedOrganisation(m.t, world, name);
    await m.t
      .http()
      .put(`/api/organisations/${o.org._id}/terms`)
      .set(bearer(world.admin.accessToken))
      .send({ paymentDays: 30, creditLimit: 5_000_000, onAccount: true })
      .expect(200);
    made.push(o);
  }
  await waitFor(
    async () => m.sim.c2b.registrations.length,
    (n) => n > 0,
    10_000,
    100,
  );
  return made;
}
