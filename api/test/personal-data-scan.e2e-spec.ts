/**
 * Personal data has owners (issue 39). One test guards every owner, those not written yet too:
 * each owner's fixture puts one person into its records; the person is erased (their own deletion,
 * a guest's request, an admin's delete, the retention sweep); then every collection of the
 * database is scanned for their name, every spelling of their phone and their e-mail: zero hits.
 * A collection that no owner declares fails the test, so a new feature must say what it keeps.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { startSmsSimulator, type SmsSimulator } from '../../tools/sms/simulator';
import { EtimsDocumentsRepository } from '../src/etims/etims-documents.repository';
import { buildSalesRequest, type EtimsDocumentInput } from '../src/etims/etims-request';
import { OrderFromQuotationService } from '../src/orders/order-from-quotation.service';
import { PersonalDataOwners } from '../src/privacy/personal-data-owners';
import { RetentionSweep } from '../src/privacy/retention-sweep';
import {
  bearer,
  registerCustomer,
  signIn,
  STRONG_PASSWORD,
  type Session,
} from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { SMS_TEST_SETTINGS } from './support/sms';
import { newPerson, personHits, type Person } from './support/personal-data';
import { addPerson, signUpOrganisation } from './support/organisations';
import { phonePhoto, scannedPdf } from './support/lpo-scans';
import { priceAndSend } from './support/quotations';
import { waitFor } from './support/wait';

interface Order {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

describe('personal data: every owner erases, nothing else keeps a person', () => {
  let m: MpesaTestApp;
  let sms: SmsSimulator;
  let world: ShopWorld;

  beforeAll(async () => {
    sms = await startSmsSimulator({
      username: SMS_TEST_SETTINGS.AT_USERNAME,
      apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
    });
    m = await createMpesaTestApp('pdscan', {
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms.url,
      SMS_RETRY_INTERVAL_MS: '200',
    });
    world = await createShopWorld(m.t, { product: { price: 300, quantity: 10_000 } });
    await waitFor(
      async () => m.sim.c2b.registrations.length,
      (n) => n > 0,
      10_000,
      100,
    );
  }, 90_000);
  afterAll(async () => {
    await m.close();
    await sms.close();
  });

  const http = () => m.t.http();
  const staff = () => bearer(world.staff.accessToken);
  const admin = () => bearer(world.admin.accessToken);
  const db = () => m.t.app.get<Connection>(getConnectionToken()).db!;
  const asDaraja = (phone: string) => `254${phone.slice(1)}`;

  const hits = (p: Person) => personHits(db(), p);

  async function order(p: Person, customer: Session | null, phone = p.spaced): Promise<Order> {
    const res = await placeOrder(m.t, [{ _id: world.productId, quantity: 1 }], {
      token: customer?.accessToken,
      guestInfo: { ...DELIVERY, fullName: p.name, phoneNumber: phone, email: p.email },
    }).expect(201);
    return res.body.order as Order;
  }

  async function staffOrder(id: string) {
    return (await http().get(`/api/orders/${id}`).set(staff()).expect(200)).body.order as {
      paymentStatus: string;
      orderStatus: string;
    };
  }

  /** Paid by paybill from the person's phone (M-Pesa names them), then delivered and completed. */
  async function payAndComplete(p: Person, o: Order): Promise<void> {
    await m.sim.payBill({
      account: o.purchaseNumber,
      amount: o.totalAmount,
      phone: asDaraja(p.phone),
    });
    await waitFor(
      () => staffOrder(o._id),
      (x) => x.paymentStatus === 'Paid',
      15_000,
      150,
    );
    await http().patch(`/api/orders/inTransit/${o._id}`).set(staff()).expect(200);
    await http()
      .patch('/api/orders/confirm-delivery')
      .set(staff())
      .send({ orderId: o._id })
      .expect(200);
    await http().patch(`/api/orders/complete-order/${o._id}`).set(staff()).expect(200);
  }

  /**
   * Each owner's fixture: puts the person into that owner's records. A new owner adds its own here
   * (the test below fails for an owner of personal data without one).
   */
  const FIXTURES: Record<string, (p: Person, c: Session | null) => Promise<void>> = {
    UsersPersonalData: async () => undefined, // the account itself (registerCustomer)
    AuthPersonalData: async (p) => {
      await signIn(m.t, p.email, STRONG_PASSWORD);
      await http().post('/api/auth/forgot/password').send({ email: p.email }).expect(200);
    },
    OrdersPersonalData: async (p, c) => payAndComplete(p, await order(p, c)),
    // Paid by paybill (its payer's number), credited as a ledger entry (done by the order above).
    PaymentsPersonalData: async () => undefined,
    MoneyPersonalData: async () => undefined,
    // The order's confirmation e-mail and texts (sent by the order above), and the reset's e-mail.
    MailPersonalData: async () => undefined,
    SmsPersonalData: async () => undefined,
    StockPersonalData: async (p, c) => {
      // A booking of a growing batch, cancelled by the customer: the stock ledger names them.
      const batch = await http()
        .post('/api/batches')
        .set(staff())
        .send({
          productId: world.productId,
          sownOn: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
          readyOn: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
          started: 100,
        })
        .expect(201);
      const res = await placeOrder(
        m.t,
        [{ _id: world.productId, quantity: 2, batchId: batch.body.batch._id } as never],
        {
          token: c?.accessToken,
          guestInfo: { ...DELIVERY, fullName: p.name, phoneNumber: p.spaced, email: p.email },
        },
      ).expect(201);
      const booked = res.body.order as Order;
      await http()
        .patch(`/api/orders/cancel/${booked._id}`)
        .set(c ? bearer(c.accessToken) : staff())
        .send({})
        .expect(200);
    },
    AuditPersonalData: async (_p, c) => {
      if (c)
        await http().get('/api/users/profile/data-export').set(bearer(c.accessToken)).expect(200);
    },
    ContactPersonalData: async (p, c) => {
      // Sent signed in: the message is the account's (an address typed on the public page proves
      // nobody, and no erasure reaches a message by it).
      await http()
        .post('/api/contact')
        .set(c ? bearer(c.accessToken) : {})
        .send({
          name: p.name,
          email: p.email,
          subject: 'Avocado seedlings',
          message: `Please call me on ${p.spaced} about grafted Hass.`,
        })
        .expect(201);
    },
    OrganisationsPersonalData: async (p, c) => {
      // They sign an organisation up, as its billing contact too, and another invites them.
      if (!c) return;
      const own = await signUpOrganisation(m.t, c, {
        billingContact: { name: p.name, phone: p.spaced, email: p.email },
      });
      const colleague = await registerCustomer(m.t);
      await addPerson(m.t, own._id, c, colleague, 'approver');
      const other = await signUpOrganisation(m.t, await registerCustomer(m.t));
      await http()
        .post(`/api/organisations/${other._id}/invitations`)
        .set(staff())
        .send({ email: p.email, role: 'buyer' })
        .expect(201);
    },
    QuotationsPersonalData: async (p, c) => {
      // The organisation they signed up (above) is approved; they ask for a quotation with their
      // phone in its note and write in its thread; the shop's reply names them.
      if (!c) return;
      const mine = await http()
        .get('/api/organisations/mine')
        .set(bearer(c.accessToken))
        .expect(200);
      const orgId = mine.body.organisation._id as string;
      await http().post(`/api/organisations/${orgId}/approve`).set(staff()).expect(201);
      const product = await http().get(`/api/products/${world.productId}`).expect(200);
      const unitId = product.body.product.units[0]._id as string;
      const q = await http()
        .post('/api/quotations')
        .set(bearer(c.accessToken))
        .send({
          lines: [{ productId: world.productId, unitId, quantity: 300 }],
          note: `Please call ${p.name} on ${p.spaced}`,
        })
        .expect(201);
      const id = q.body.quotation._id as string;
      await http()
        .post(`/api/quotations/${id}/messages`)
        .set(bearer(c.accessToken))
        .send({ text: `Write to me at ${p.email}` })
        .expect(201);
      await http()
        .post(`/api/quotations/${id}/messages`)
        .set(staff())
        .send({ text: `Thank you ${p.name}, we will call ${p.spaced}` })
        .expect(201);
    },
    // The tranche TranchesPersonalData delivers to a site named after them is invoiced by itself.
    InvoicesPersonalData: async () => undefined,
    TranchesPersonalData: async (p, c) => {
      // Their organisation's order from a quotation (approved above) goes in a tranche to a site
      // named after them, with them as its contact (texted when it leaves) and signing for it.
      if (!c) return;
      const mine = await http().get('/api/organisations/mine').set(bearer(c.accessToken));
      const orgId = mine.body.organisation._id as string;
      await http()
        .put(`/api/organisations/${orgId}/terms`)
        .set(admin())
        .send({ paymentDays: 30, creditLimit: 1_000_000, onAccount: true })
        .expect(200);
      const product = await http().get(`/api/products/${world.productId}`).expect(200);
      const unitId = product.body.product.units[0]._id as string;
      const line = { productId: world.productId, unitId, batchId: null };
      const order = await m.t.app.get(OrderFromQuotationService).place({
        quotationId: new Types.ObjectId().toHexString(),
        version: 1,
        organisationId: orgId,
        actor: { id: c.user._id, role: 'customer', fullName: p.name },
        buyerAccountId: c.user._id,
        lines: [{ ...line, quantity: 3, unitPrice: 300 }],
        delivery: { ...DELIVERY, fullName: p.name, phoneNumber: p.spaced, email: p.email },
        deliveryFee: 0,
        lpoNumber: `LPO-${new Types.ObjectId().toHexString().slice(-8)}`,
        onAccount: true,
      });
      await http()
        .post(`/api/orders/${order._id}/tranches`)
        .set(staff())
        .send({
          site: {
            name: `${p.name} farm`,
            county: 'Kiambu',
            contact: { name: p.name, phone: p.spaced },
          },
          date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
          lines: [{ ...line, quantity: 3 }],
        })
        .expect(201);
      await http().post(`/api/orders/${order._id}/tranches/1/dispatch`).set(staff()).expect(200);
      await http()
        .post(`/api/orders/${order._id}/tranches/1/delivery`)
        .set(staff())
        .send({
          signedBy: p.name,
          signedAt: new Date().toISOString(),
          lines: [{ ...line, delivered: 2, shortReason: `${p.name} asked for one less` }],
        })
        .expect(200);
      // The clerk attaches the photo of the note they signed (the paper stays the organisation's).
      await http()
        .put(`/api/orders/${order._id}/tranches/1/signed-note`)
        .set(staff())
        .attach('file', await phonePhoto(), 'note.jpg')
        .expect(200);
      // The one that came back goes again; the order, delivered, is paid and completed.
      await http()
        .post(`/api/orders/${order._id}/tranches`)
        .set(staff())
        .send({
          site: {
            name: 'Kiambu depot',
            county: 'Kiambu',
            contact: { name: p.name, phone: p.spaced },
          },
          date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
          lines: [{ ...line, quantity: 1 }],
        })
        .expect(201);
      await http().post(`/api/orders/${order._id}/tranches/2/dispatch`).set(staff()).expect(200);
      await http()
        .post(`/api/orders/${order._id}/tranches/2/delivery`)
        .set(staff())
        .send({ signedBy: p.name, signedAt: new Date().toISOString() })
        .expect(200);
      await http()
        .patch(`/api/orders/complete-payment/${order._id}`)
        .set(staff())
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
        .expect(200);
      await http().patch(`/api/orders/complete-order/${order._id}`).set(staff()).expect(200);
      await waitFor(
        async () => sms.outbox.filter((x) => x.message.includes(order.purchaseNumber)).length,
        (n) => n >= 4,
        10_000,
      );
    },
    ScansPersonalData: async (_p, c) => {
      // The organisation they signed up (approved above) gets a credit limit; they accept a
      // quotation for it and attach its scanned LPO; the shop cancels the order, so they may leave.
      if (!c) return;
      const mine = await http()
        .get('/api/organisations/mine')
        .set(bearer(c.accessToken))
        .expect(200);
      const orgId = mine.body.organisation._id as string;
      await http()
        .put(`/api/organisations/${orgId}/terms`)
        .set(admin())
        .send({ paymentDays: 30, creditLimit: 1_000_000, onAccount: false })
        .expect(200);
      const product = await http().get(`/api/products/${world.productId}`).expect(200);
      const lines = [
        { productId: world.productId, unitId: product.body.product.units[0]._id, quantity: 2 },
      ];
      const q = await http()
        .post('/api/quotations')
        .set(staff())
        .send({ organisationId: orgId, lines })
        .expect(201);
      await priceAndSend(m.t, world.staff, q.body.quotation._id, lines);
      const accepted = await http()
        .post(`/api/quotations/${q.body.quotation._id}/accept`)
        .set(bearer(c.accessToken))
        .send({ version: 1, lpoNumber: 'LPO/2026/0007' })
        .expect(201);
      const orderId = accepted.body.order._id as string;
      await http()
        .put(`/api/orders/${orderId}/lpo-scan`)
        .set(bearer(c.accessToken))
        .attach('file', await scannedPdf(), 'lpo.pdf')
        .expect(200);
      await http().patch(`/api/orders/cancel/${orderId}`).set(staff()).send({}).expect(200);
    },
    EtimsPersonalData: async (p, c) => {
      // A receipt signed in their name (a shopper who gave a KRA PIN). This suite runs with eTIMS
      // off (no OSCU to sign), so the document is written as the queue writes it, number and all.
      const o = await order(p, c);
      await payAndComplete(p, o);
      const now = new Date();
      const input: EtimsDocumentInput = {
        source: `order:${o._id}:sale`,
        kind: 'sale',
        trdInvcNo: o.purchaseNumber,
        orderId: o._id,
        buyer: { tin: 'A123456789Z', name: p.name, person: true },
        paymentType: '06',
        at: now,
        lines: [
          {
            itemCd: 'KE2NTU0000001',
            itemClsCd: '1010160000',
            itemNm: 'Hass avocado seedling',
            pkgUnitCd: 'NT',
            qtyUnitCd: 'U',
            qty: 1,
            unitPrice: o.totalAmount,
            taxTyCd: 'B',
          },
        ],
      };
      const documents = m.t.app.get(EtimsDocumentsRepository);
      await documents.insertNumbered(
        {
          _id: input.source,
          kind: 'sale',
          sequence: 'P051234567X/00',
          original: null,
          orgInvcNo: 0,
          orderId: o._id,
          trdInvcNo: o.purchaseNumber,
          personalBuyer: true,
          input,
          state: 'signed',
          attempts: 1,
          nextTryAt: now,
          leaseUntil: now,
          sender: null,
          lastCode: '000',
          lastMessage: null,
          signature: null,
          createdAt: now,
          updatedAt: now,
          signedAt: now,
        },
        (invcNo) => buildSalesRequest(input, invcNo, 0, now),
      );
      if (!c) return;
      // A credit note registered in their name (a customer's own refund, as one was registered
      // before customers were not registrars), not sent yet.
      const credit: EtimsDocumentInput = {
        ...input,
        source: `refund:${o._id}@${input.source}`,
        kind: 'credit-note',
        original: input.source,
        trdInvcNo: `${o.purchaseNumber}-CN`,
        buyer: null,
        by: { id: c.user._id, name: p.name },
      };
      const sale = (await documents.find(input.source))!;
      await documents.insertNumbered(
        {
          _id: credit.source,
          kind: 'credit-note',
          sequence: sale.sequence,
          original: sale._id,
          orgInvcNo: sale.invcNo,
          orderId: o._id,
          trdInvcNo: credit.trdInvcNo,
          personalBuyer: false,
          input: credit,
          state: 'queued',
          attempts: 0,
          nextTryAt: now,
          leaseUntil: now,
          sender: null,
          lastCode: null,
          lastMessage: null,
          signature: null,
          createdAt: now,
          updatedAt: now,
          signedAt: null,
        },
        (invcNo) => buildSalesRequest(credit, invcNo, sale.invcNo, now),
      );
    },
    PrivacyPersonalData: async (_p, c) => {
      if (c)
        await http()
          .patch('/api/users/profile/consents')
          .set(bearer(c.accessToken))
          .send({ marketingSms: true })
          .expect(200);
    },
  };

  it('every collection is declared by an owner, and every owner of personal data has a fixture', async () => {
    const owners = m.t.app.get(PersonalDataOwners);
    const declared = owners.declared();
    // Put something in every collection the API makes by using it (the scenarios below do too).
    const undeclared = (await db().listCollections().toArray())
      .map((c) => c.name)
      .filter((name) => !declared.has(name));
    expect(undeclared).toEqual([]);
    const holders = new Set(
      [...declared.values()].filter((d) => d.holds !== '').map((d) => d.owner),
    );
    const withoutFixture = [...holders].filter((owner) => !(owner in FIXTURES));
    expect(withoutFixture).toEqual([]);
  });

  it('a customer who deletes their account is named nowhere any more', async () => {
    const p = newPerson('Wairimu');
    const c = await registerCustomer(m.t, {
      fullName: p.name,
      email: p.email,
      phoneNumber: p.phone,
    });
    for (const fixture of Object.values(FIXTURES)) await fixture(p, c);
    expect((await hits(p)).length).toBeGreaterThan(0);

    await http()
      .post('/api/users/profile/delete')
      .set(bearer(c.accessToken))
      .send({ password: STRONG_PASSWORD })
      .expect(200);
    expect(await hits(p)).toEqual([]);
    // Nothing keeps their account as the one who did it (the scanned LPO they attached stays).
    const uploads = db().collection('scanned_documents');
    expect(await uploads.countDocuments({ uploadedById: c.user._id })).toBe(0);
    expect(await uploads.countDocuments({})).toBeGreaterThan(0);
    // Nor as the registrar of an eTIMS document (the name is scanned above; the id here).
    const etims = db().collection('etims_documents');
    expect(await etims.countDocuments({ 'input.by.id': c.user._id })).toBe(0);
    expect(await etims.countDocuments({ 'request.regrId': c.user._id.slice(0, 20) })).toBe(0);
    // Every collection the scenarios wrote is declared too.
    const declared = m.t.app.get(PersonalDataOwners).declared();
    const names = (await db().listCollections().toArray()).map((x) => x.name);
    expect(names.filter((n) => !declared.has(n))).toEqual([]);
  });

  it("a guest's erasure finds every order by the canonical phone, however it was typed", async () => {
    const p = newPerson('Wairimu');
    const typed = [p.spaced, `+254${p.phone.slice(1)}`, `254 ${p.phone.slice(1)}`];
    const orders: Order[] = [];
    for (const phone of typed) orders.push(await order(p, null, phone));
    for (const o of orders) await payAndComplete(p, o);
    // (No contact message here: the page is public, so an address typed there is nobody's proven
    // one; a guest's erasure reaches records by the phone they proved and by their orders.)

    await http()
      .post('/api/privacy/requests')
      .send({ purchaseNumber: orders[0]!.purchaseNumber, phoneNumber: p.phone, kind: 'erasure' })
      .expect(201)
      .then(async (res) => {
        const msisdn = `+254${p.phone.slice(1)}`;
        const text = await waitFor(
          async () => sms.outbox.filter((x) => x.to === msisdn && /data request/.test(x.message)),
          (l) => l.length > 0,
          10_000,
          100,
        );
        const code = /is (\d{6})/.exec(text[0]!.message)![1]!;
        await http()
          .post(`/api/privacy/requests/${res.body.requestId}/confirm`)
          .send({ code })
          .expect(200);
        await http()
          .post(`/api/admin/data-requests/${res.body.requestId}/erase`)
          .set(admin())
          .expect(200);
      });
    expect(await hits(p)).toEqual([]);
  });

  it("an admin's delete of a customer is the same erasure, refused while an order is open", async () => {
    const p = newPerson('Wairimu');
    const c = await registerCustomer(m.t, {
      fullName: p.name,
      email: p.email,
      phoneNumber: p.phone,
    });
    const open = await order(p, c);
    const refused = await http().delete(`/api/user/delete/${c.user._id}`).set(admin()).expect(409);
    expect(refused.body.message).toContain(open.purchaseNumber);
    await payAndComplete(p, open);
    await http().delete(`/api/user/delete/${c.user._id}`).set(admin()).expect(200);
    expect(await hits(p)).toEqual([]);
    // The trail as the admin reads it names them no more (its CSV is written from these entries).
    const trail = await http().get('/api/audit-logs?limit=100').set(admin()).expect(200);
    expect(JSON.stringify(trail.body).toLowerCase()).not.toContain(p.surname.toLowerCase());
  });

  it('the retention sweep forgets the people of orders past the tax period everywhere', async () => {
    const p = newPerson('Wairimu');
    const o = await order(p, null);
    await payAndComplete(p, o);
    expect((await hits(p)).length).toBeGreaterThan(0);
    const future = new Date();
    future.setUTCFullYear(future.getUTCFullYear() + 8);
    expect(await m.t.app.get(RetentionSweep).sweep(future)).toBeGreaterThan(0);
    expect(await hits(p)).toEqual([]);
  });
});
