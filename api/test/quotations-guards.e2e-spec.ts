/**
 * What a quotation refuses, on the real database (issue 42): another organisation's people read
 * nothing of it (404, as a missing id); a version past its validity reads expired everywhere and
 * cannot be accepted; only an approver or the shop accepts, the latest version, with an LPO; a
 * withdrawn quotation is neither accepted nor sent again; however many accepts come at once, one
 * claims it.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import {
  QUOTATION_LIMITS,
  QUOTATION_MESSAGES as QM,
  QUOTATION_RULES,
  type QuotationSummary,
  type QuotationView,
} from '@spc/shared-contracts';
import { addDays, shopDay } from '../src/common/shop-clock';
import { QuotationsRepository } from '../src/quotations/quotations.repository';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { signUpOrganisation } from './support/organisations';
import {
  approvedOrganisation,
  quotationOf,
  site,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

const today = () => shopDay(new Date());

describe('quotations: what they refuse', () => {
  let t: TestApp;
  let world: ShopWorld;
  let county: Buyers;
  let other: Buyers;
  let tray: TrayProduct;

  beforeAll(async () => {
    t = await createTestApp({ name: 'quotation_guards', env: UNTHROTTLED });
    world = await createShopWorld(t);
    county = await approvedOrganisation(t, world);
    other = await approvedOrganisation(t, world, 'Green Schools Trust');
    tray = await trayProduct(t, world, 20_000);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const staff = () => as(world.staff);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const read = async (id: string, who: Session = world.staff) =>
    quotationOf(await t.http().get(`/api/quotations/${id}`).set(as(who)).expect(200));
  const send = (id: string) => t.http().post(`/api/quotations/${id}/send`).set(staff());
  const lines = () => [{ productId: tray.productId, unitId: tray.trayId, quantity: 20 }];
  /** A request by the county's buyer, priced and sent as version 1. */
  const sentQuotation = async () => {
    const q = quotationOf(
      await t
        .http()
        .post('/api/quotations')
        .set(as(county.buyer))
        .send({ lines: lines() })
        .expect(201),
    );
    await t
      .http()
      .put(`/api/quotations/${q._id}/draft`)
      .set(staff())
      .send({
        lines: lines(),
        delivery: site(addDays(today(), 20)),
        deliveryFee: 5000,
        validUntil: addDays(today(), 30),
      })
      .expect(200);
    return quotationOf(await send(q._id).expect(201));
  };

  it("keeps an organisation's quotation from another organisation's people: 404 as for a missing id", async () => {
    const q = await sentQuotation();
    const missing = new Types.ObjectId().toString();
    for (const id of [q._id, missing]) {
      const res = await t.http().get(`/api/quotations/${id}`).set(as(other.buyer)).expect(404);
      expect(res.body.message).toBe(QM.noQuotation);
      await t
        .http()
        .post(`/api/quotations/${id}/messages`)
        .set(as(other.approver))
        .send({ text: 'hi' })
        .expect(404);
      await t
        .http()
        .post(`/api/quotations/${id}/accept`)
        .set(as(other.approver))
        .send({ version: 1, lpoNumber: 'LPO-1' })
        .expect(404);
      await t.http().get(`/api/quotations/${id}/versions/1/pdf`).set(as(other.buyer)).expect(404);
    }
    const list = await t
      .http()
      .get(`/api/quotations?organisationId=${county.org._id}`)
      .set(as(other.buyer))
      .expect(200);
    expect(list.body.quotations).toEqual([]);
    expect((await read(q._id)).messages).toEqual([]);
  });

  it('reads a version past its validity as expired everywhere, and refuses to accept it', async () => {
    const q = await sentQuotation();
    // The shop's day moved past its validity: stored as if it were sent with yesterday's date.
    const yesterday = addDays(today(), -1);
    await db()
      .collection('quotations')
      .updateOne(
        { _id: new Types.ObjectId(q._id) },
        { $set: { validUntil: yesterday, 'versions.0.validUntil': yesterday } },
      );
    expect((await read(q._id, county.approver)).status).toBe('expired');
    const expired = await t
      .http()
      .get('/api/quotations?status=expired&limit=100')
      .set(staff())
      .expect(200);
    expect((expired.body.quotations as QuotationSummary[]).map((x) => x._id)).toContain(q._id);
    const sent = await t
      .http()
      .get('/api/quotations?status=sent&limit=100')
      .set(staff())
      .expect(200);
    expect((sent.body.quotations as QuotationSummary[]).map((x) => x._id)).not.toContain(q._id);
    for (const who of [county.approver, world.staff]) {
      const res = await t
        .http()
        .post(`/api/quotations/${q._id}/accept`)
        .set(as(who))
        .send({ version: 1, lpoNumber: 'KCG/LPO/2026/0001' })
        .expect(409);
      expect(res.body.message).toBe(QM.expired);
    }
    expect((await read(q._id)).status).toBe('expired');
    expect((await read(q._id)).acceptance).toBeNull();
  });

  it('lets only an approver (or the shop) accept: a buyer gets 403; an old version, a missing LPO and a withdrawn quotation are refused', async () => {
    const q = await sentQuotation();
    const accept = (who: Session, body: object) =>
      t.http().post(`/api/quotations/${q._id}/accept`).set(as(who)).send(body);
    const byBuyer = await accept(county.buyer, { version: 1, lpoNumber: 'LPO-7' }).expect(403);
    expect(byBuyer.body.message).toBe(QM.notApprover);
    expect(
      (await accept(county.approver, { version: 1, lpoNumber: '   ' }).expect(400)).body.message,
    ).toBe(QM.lpoRequired);
    await accept(county.approver, { version: 1, lpoNumber: 'x'.repeat(41) }).expect(400);
    expect(
      (await accept(county.approver, { version: 2, lpoNumber: 'LPO-7' }).expect(409)).body.message,
    ).toBe(QM.notLatest);
    // The buyer cannot decline nor withdraw it either; the shop withdraws it.
    await t
      .http()
      .post(`/api/quotations/${q._id}/decline`)
      .set(as(county.buyer))
      .send({})
      .expect(403);
    await t
      .http()
      .post(`/api/quotations/${q._id}/withdraw`)
      .set(as(county.approver))
      .send({})
      .expect(403);
    const withdrawn = await t
      .http()
      .post(`/api/quotations/${q._id}/withdraw`)
      .set(staff())
      .send({ reason: 'Stock sold to another county' })
      .expect(201);
    expect(quotationOf(withdrawn).status).toBe('withdrawn');
    expect(quotationOf(withdrawn).messages.at(-1)).toMatchObject({
      from: 'shop',
      text: 'Stock sold to another county',
    });
    const again = await accept(county.approver, { version: 1, lpoNumber: 'LPO-7' }).expect(409);
    expect(again.body).toMatchObject({
      code: 'ILLEGAL_TRANSITION',
      message: QUOTATION_RULES.accept.refused,
    });
    const resend = await send(q._id).expect(409);
    expect(resend.body.message).toBe(QUOTATION_RULES.send.refused);
    expect((await read(q._id)).acceptance).toBeNull();
  });

  it('claims a quotation for acceptance once, however many accepts come at once', async () => {
    const q: QuotationView = await sentQuotation();
    const repository = t.app.get(QuotationsRepository);
    const claim = (n: number) =>
      repository
        .claim(q._id, today(), {
          version: 1,
          lpoNumber: `LPO-RACE-${n}`,
          lpoKey: `LPO-RACE-${n}`,
          acceptedAt: new Date().toISOString(),
          acceptedById: county.approver.user._id,
          acceptedByName: county.approver.user.fullName,
          acceptedByRole: 'customer',
          byShop: false,
          onAccount: false,
          orderId: null,
          purchaseNumber: null,
        })
        .catch(() => null);
    const claims = await Promise.all([1, 2, 3, 4, 5].map(claim));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    // While claimed it reads as sent, and every other step waits: an accept is refused.
    expect((await read(q._id, county.approver)).status).toBe('sent');
    const res = await t
      .http()
      .post(`/api/quotations/${q._id}/accept`)
      .set(as(county.approver))
      .send({ version: 1, lpoNumber: 'LPO-LATE' })
      .expect(409);
    expect(res.body.message).toBe(QUOTATION_RULES.accept.refused);
    await t.http().post(`/api/quotations/${q._id}/withdraw`).set(staff()).send({}).expect(409);
    await repository.release(q._id, won[0]!.acceptance!.acceptedAt);
    expect((await read(q._id)).acceptance).toBeNull();
  });

  it("limits an organisation's requests and messages a day (the shop's are not), and refuses the rest 429 changing nothing", async () => {
    const ask = () =>
      t.http().post('/api/quotations').set(as(other.buyer)).send({ lines: lines() });
    const first = quotationOf(await ask().expect(201));
    for (let i = 1; i < QUOTATION_LIMITS.requestsPerDay; i++) await ask().expect(201);
    const refused = await ask().expect(429);
    expect(refused.body.message).toBe(QM.tooManyRequests);
    // Staff writing one for it from a call are not counted.
    await t
      .http()
      .post('/api/quotations')
      .set(staff())
      .send({ lines: lines(), organisationId: other.org._id })
      .expect(201);
    const listed = await t.http().get('/api/quotations').set(as(other.approver)).expect(200);
    expect(listed.body.totalQuotations).toBe(QUOTATION_LIMITS.requestsPerDay + 1);

    const write = (who: Session, text: string) =>
      t.http().post(`/api/quotations/${first._id}/messages`).set(as(who)).send({ text });
    for (let i = 0; i < QUOTATION_LIMITS.messagesPerDay; i++)
      await write(i % 2 ? other.buyer : other.approver, `Question ${i}`).expect(201);
    const tooMany = await write(other.buyer, 'One more').expect(429);
    expect(tooMany.body.message).toBe(QM.tooManyMessages);
    await write(world.staff, 'We will call you').expect(201);
    const thread = (await read(first._id)).messages;
    expect(thread).toHaveLength(QUOTATION_LIMITS.messagesPerDay + 1);
    expect(thread.at(-1)).toMatchObject({ from: 'shop', text: 'We will call you' });
  });

  it('lets staff write one from a call only for an approved organisation they name, and an approver decline one', async () => {
    const write = (body: object) => t.http().post('/api/quotations').set(staff()).send(body);
    const unnamed = await write({ lines: lines() }).expect(400);
    expect(unnamed.body.errors[0].field).toBe('organisationId');
    const pending = await world.createCustomer();
    const signed = await signUpOrganisation(t, pending, { name: 'Pending Orchard Co-op' });
    await write({ lines: lines(), organisationId: signed._id }).expect(400);
    // Its own person cannot ask either until the shop approves it.
    await t.http().post('/api/quotations').set(as(pending)).send({ lines: lines() }).expect(403);

    const byPhone = quotationOf(
      await write({ lines: lines(), organisationId: county.org._id }).expect(201),
    );
    expect(byPhone.requestedBy).toBe(world.staff.user.fullName);
    expect((await read(byPhone._id, county.approver)).status).toBe('requested');

    const q = await sentQuotation();
    const declined = await t
      .http()
      .post(`/api/quotations/${q._id}/decline`)
      .set(as(county.approver))
      .send({ reason: 'The budget moved to next year' })
      .expect(201);
    expect(quotationOf(declined)).toMatchObject({ status: 'declined' });
    expect(quotationOf(declined).messages.at(-1)).toMatchObject({
      from: 'organisation',
      text: 'The budget moved to next year',
    });
    await t
      .http()
      .post(`/api/quotations/${q._id}/decline`)
      .set(as(county.approver))
      .send({})
      .expect(409);
  });
});
