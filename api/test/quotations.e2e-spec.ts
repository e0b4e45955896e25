/**
 * Quotations on the real database (issue 42): a buyer of an approved organisation asks for one from
 * cart lines; staff price it (the organisation's price list by default, a negotiated price per
 * line), send it, revise it once; both sides write in its thread; its PDF; the person's export.
 * What quotations refuse is in quotations-guards.e2e-spec.ts; acceptances that need the orders'
 * side in quotations-accept.e2e-spec.ts; who may call each route in quotations-access.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { QUOTATION_MESSAGES as QM, type QuotationSummary } from '@spc/shared-contracts';
import { addDays, shopDay } from '../src/common/shop-clock';
import { bearer, UNTHROTTLED, type Session } from './support/identity';
import { decoded, outbox } from './support/mail';
import {
  approvedOrganisation,
  binary,
  pdfText,
  quotationOf,
  site,
  trayProduct,
  type Buyers,
  type TrayProduct,
} from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

const today = () => shopDay(new Date());
const SHOP_PIN = 'P000111222K';

describe('quotations', () => {
  let t: TestApp;
  let world: ShopWorld;
  let dataDir: string;
  let county: Buyers;
  let other: Buyers;
  let tray: TrayProduct;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-quotations-'));
    t = await createTestApp({
      name: 'quotations',
      env: { ...UNTHROTTLED, DATA_DIR: dataDir, SHOP_KRA_PIN: SHOP_PIN },
    });
    world = await createShopWorld(t);
    county = await approvedOrganisation(t, world);
    other = await approvedOrganisation(t, world, 'Green Schools Trust');
    tray = await trayProduct(t, world, 20_000);
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const as = (s: Session) => bearer(s.accessToken);
  const staff = () => as(world.staff);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const request = (who: Session, body: object) =>
    t.http().post('/api/quotations').set(as(who)).send(body);
  const read = async (id: string, who: Session = world.staff) =>
    quotationOf(await t.http().get(`/api/quotations/${id}`).set(as(who)).expect(200));
  const draft = (id: string, body: object) =>
    t.http().put(`/api/quotations/${id}/draft`).set(staff()).send(body);
  const send = (id: string) => t.http().post(`/api/quotations/${id}/send`).set(staff());
  const awaiting = async () =>
    (await t.http().get('/api/quotations/awaiting-shop/count').set(staff()).expect(200)).body
      .count as number;
  const trail = async (action: string) =>
    (
      await t
        .http()
        .get(`/api/audit-logs?action=${action}&limit=100`)
        .set(as(world.admin))
        .expect(200)
    ).body as { message: string; target?: { id: string } }[];
  const cartLines = () => [
    { productId: tray.productId, unitId: tray.trayId, quantity: 20 },
    { productId: tray.productId, unitId: tray.singleId, quantity: 500 },
  ];
  /** A request by the county's buyer, priced and sent as version 1. */
  const sentQuotation = async (validUntil = addDays(today(), 30)) => {
    const q = quotationOf(await request(county.buyer, { lines: cartLines() }).expect(201));
    await draft(q._id, {
      lines: cartLines(),
      delivery: site(addDays(today(), 20)),
      deliveryFee: 5000,
      validUntil,
    }).expect(200);
    return quotationOf(await send(q._id).expect(201));
  };

  it("turns a buyer's cart lines into a request the shop sees awaiting it, and refuses bad ones changing nothing", async () => {
    const before = await awaiting();
    const count = await db().collection('quotations').countDocuments();
    const [productId, unitId] = [tray.productId, tray.trayId];
    const bad: [object, string][] = [
      [{ lines: [] }, QM.linesRequired],
      [{ lines: [{ productId, unitId, quantity: 0 }] }, QM.lineQuantity],
      [{ lines: [{ productId, unitId, quantity: 10_001 }] }, QM.lineQuantity],
      [
        {
          lines: [
            { productId, unitId, quantity: 5 },
            { productId, unitId, quantity: 6 },
          ],
        },
        QM.duplicateLine,
      ],
      [
        {
          lines: [
            {
              productId,
              unitId: tray.singleId,
              quantity: 5,
              batchId: new Types.ObjectId().toString(),
            },
          ],
        },
        'This batch no longer exists',
      ],
      [
        { lines: [{ productId, unitId: world.productId, quantity: 5 }] },
        "not one of Grevillea robusta's units",
      ],
      [
        { lines: cartLines(), delivery: { ...site(addDays(today(), -1)) } },
        'cannot be before today',
      ],
    ];
    for (const [body, message] of bad) {
      const res = await request(county.buyer, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.message).toContain(message);
    }
    expect(await db().collection('quotations').countDocuments()).toBe(count);

    const res = await request(county.buyer, {
      lines: cartLines(),
      note: 'For the short rains planting',
      delivery: site(addDays(today(), 20)),
    }).expect(201);
    const q = quotationOf(res);
    expect(q.number).toMatch(/^QUO-\d{6}$/);
    expect(q.status).toBe('requested');
    expect(q.organisationId).toBe(county.org._id);
    expect(q.requestedBy).toBe(county.buyer.user.fullName);
    expect(q.request.lines).toEqual(cartLines().map((l) => ({ ...l, batchId: null })));
    expect(q.versions).toEqual([]);
    expect(await awaiting()).toBe(before + 1);
    const listed = await t
      .http()
      .get('/api/quotations?status=requested&limit=100')
      .set(staff())
      .expect(200);
    expect((listed.body.quotations as QuotationSummary[]).map((x) => x._id)).toContain(q._id);
    const mine = await t.http().get('/api/quotations').set(as(county.approver)).expect(200);
    expect((mine.body.quotations as QuotationSummary[]).map((x) => x.number)).toContain(q.number);
    expect((await trail('quotation.request')).some((e) => e.target?.id === q._id)).toBe(true);
    const found = async (query: string) =>
      (
        (await t.http().get(`/api/quotations?${query}`).set(staff()).expect(200)).body
          .quotations as QuotationSummary[]
      ).map((x) => x._id);
    const digits = q.number.slice(4).replace(/^0+/, '');
    expect(await found(`search=${q.number}`)).toEqual([q._id]);
    expect(await found(`search=${digits}`)).toContain(q._id);
    expect(await found(`search=kiambu%20county&organisationId=${county.org._id}`)).toContain(q._id);
    expect(await found(`organisationId=${other.org._id}`)).not.toContain(q._id);

    // A customer of no organisation asks nothing.
    const stranger = await world.createCustomer();
    const refused = await request(stranger, { lines: cartLines() }).expect(403);
    expect(refused.body.message).toBe(QM.notBuyer);
  });

  it("prices lines from the organisation's price list, sends version 1 by e-mail, and revises it once as version 2 the buyer sees beside it", async () => {
    await t
      .http()
      .put(`/api/organisations/${county.org._id}/price-list`)
      .set(as(world.admin))
      .send({ discountPercent: 10, prices: [] })
      .expect(200);
    const q = quotationOf(await request(county.buyer, { lines: cartLines() }).expect(201));
    expect((await send(q._id).expect(409)).body.message).toBe(QM.noDraft);
    const tooLong = await draft(q._id, {
      lines: cartLines(),
      delivery: site(addDays(today(), 20)),
      deliveryFee: 5000,
      validUntil: addDays(today(), 91),
    }).expect(400);
    expect(tooLong.body.message).toBe(QM.validUntil);

    const priced = quotationOf(
      await draft(q._id, {
        lines: cartLines(),
        delivery: site(addDays(today(), 20)),
        deliveryFee: 5000,
        validUntil: addDays(today(), 30),
        note: 'Prices hold for the season',
      }).expect(200),
    );
    // 20 trays reach the 1,350 tier, less 10 %; 500 singles at 40, less 10 %.
    expect(priced.draft!.lines.map((l) => [l.shopUnitPrice, l.unitPrice, l.lineTotal])).toEqual([
      [1350, 1215, 24_300],
      [40, 36, 18_000],
    ]);
    expect(priced.draft!.total).toBe(24_300 + 18_000 + 5000);
    // The buyer sees no draft.
    expect((await read(q._id, county.buyer)).draft).toBeNull();

    const v1 = quotationOf(await send(q._id).expect(201));
    expect(v1.status).toBe('sent');
    expect(v1.versions.map((v) => [v.version, v.total, v.sentBy])).toEqual([
      [1, 47_300, world.staff.user.fullName],
    ]);
    expect(v1.draft).toBeNull();
    for (const person of [county.buyer, county.approver]) {
      const mails = await waitFor(
        async () =>
          outbox(dataDir)
            .map(decoded)
            .filter((m) => m.includes(`To: ${person.user.email}`) && m.includes(q.number)),
        (m) => m.length > 0,
        10_000,
      );
      expect(mails[0]).toContain('KES 47,300');
    }

    // The buyer asks for changes; the shop negotiates the tray price and sends version 2.
    const asked = await t
      .http()
      .post(`/api/quotations/${q._id}/ask-changes`)
      .set(as(county.buyer))
      .send({ text: 'Can the trays come at 1,100?' })
      .expect(201);
    expect(quotationOf(asked).status).toBe('requested');
    expect(quotationOf(asked).messages.at(-1)).toMatchObject({
      from: 'organisation',
      text: 'Can the trays come at 1,100?',
    });
    await draft(q._id, {
      lines: [{ ...cartLines()[0], unitPrice: 1100 }, cartLines()[1]],
      delivery: site(addDays(today(), 20)),
      deliveryFee: 0,
      validUntil: addDays(today(), 30),
    }).expect(200);
    await send(q._id).expect(201);
    const seen = await read(q._id, county.buyer);
    expect(seen.versions.map((v) => [v.version, v.total])).toEqual([
      [1, 47_300],
      [2, 22_000 + 18_000],
    ]);
    expect(seen.status).toBe('sent');
    expect((await trail('quotation.send')).filter((e) => e.target?.id === q._id)).toHaveLength(2);
  });

  it('carries messages both ways, and refuses an empty one', async () => {
    const q = await sentQuotation();
    const write = (who: Session, text: unknown) =>
      t.http().post(`/api/quotations/${q._id}/messages`).set(as(who)).send({ text });
    expect((await write(county.buyer, '   ').expect(400)).body.message).toBe(QM.messageRequired);
    await write(county.buyer, 'Can the first tranche come in October?').expect(201);
    const answered = quotationOf(await write(world.staff, 'Yes, from the 5th.').expect(201));
    expect(answered.messages.map((m) => [m.from, m.authorName, m.text])).toEqual([
      ['organisation', county.buyer.user.fullName, 'Can the first tranche come in October?'],
      ['shop', world.staff.user.fullName, 'Yes, from the 5th.'],
    ]);
    // The organisation reads the shop's side as the shop's, naming no member of its staff (as a
    // customer's money list does); the shop sees who wrote.
    const seen = await read(q._id, county.approver);
    expect(seen.messages.map((m) => [m.from, m.authorName])).toEqual([
      ['organisation', county.buyer.user.fullName],
      ['shop', 'The shop'],
    ]);
    expect(seen.versions.map((v) => v.sentBy)).toEqual(['The shop']);
    expect(JSON.stringify(seen)).not.toContain(world.staff.user.fullName);
  });

  it('gives each version sent as a real PDF with its number, the organisation and its KRA PIN', async () => {
    const q = await sentQuotation();
    const res = await t
      .http()
      .get(`/api/quotations/${q._id}/versions/1/pdf`)
      .set(as(county.buyer))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain(`Quotation ${q.number}`);
    expect(text).toContain(county.org.name);
    expect(text).toContain(county.org.kraPin);
    expect(text).toContain(`KRA PIN ${SHOP_PIN}`);
    expect(text).toContain('Grevillea robusta');
    await t.http().get(`/api/quotations/${q._id}/versions/2/pdf`).set(as(county.buyer)).expect(404);
  });

  it("exports a person's requests and messages to them, and sends two sends at once as one version", async () => {
    const q = await sentQuotation();
    await t
      .http()
      .post(`/api/quotations/${q._id}/messages`)
      .set(as(county.buyer))
      .send({ text: 'Please keep the trays for us' })
      .expect(201);
    const res = await t
      .http()
      .get('/api/users/profile/data-export')
      .set(as(county.buyer))
      .expect(200);
    const file = JSON.parse(res.text) as {
      quotations: { number: string; youAskedForIt: boolean; yourMessages: { text: string }[] }[];
    };
    expect(file.quotations.find((x) => x.number === q.number)).toMatchObject({
      youAskedForIt: true,
      yourMessages: [{ text: 'Please keep the trays for us' }],
    });
    // The approver asked for none of them and wrote nothing: none is theirs.
    const theirs = await t
      .http()
      .get('/api/users/profile/data-export')
      .set(as(county.approver))
      .expect(200);
    expect(JSON.parse(theirs.text).quotations).toEqual([]);

    // A revision sent twice at once is one version 2.
    await t
      .http()
      .post(`/api/quotations/${q._id}/ask-changes`)
      .set(as(county.approver))
      .send({ text: 'Delivery in two tranches' })
      .expect(201);
    await draft(q._id, {
      lines: cartLines(),
      delivery: site(addDays(today(), 25)),
      deliveryFee: 8000,
      validUntil: addDays(today(), 30),
    }).expect(200);
    const sends = await Promise.all([send(q._id), send(q._id)]);
    expect(sends.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await read(q._id)).versions.map((v) => v.version)).toEqual([1, 2]);
  });
});
