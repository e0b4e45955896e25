/**
 * The photo or scan of a tranche's signed delivery note (issue 43), on the real database with two
 * API instances: the shop attaches it once the load left, a new one replacing the old; the order's
 * organisation's people and the shop read it back; it is checked by its bytes like the scanned LPO
 * (never its name or declared type), a photo loses where it was taken; the same file again writes
 * nothing, on either instance; every tranche view says whether one is attached.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import sharp from 'sharp';
import { SIGNED_NOTE_MESSAGES as SM, TRANCHE_MESSAGES as TM } from '@spc/shared-contracts';
import { ScansPersonalData } from '../src/scans/scans-personal-data';
import { pngBomb } from './support/factories';
import { bearer, registerCustomer, type Session } from './support/identity';
import { phonePhoto, scannedPdf } from './support/lpo-scans';
import { binary } from './support/quotations';
import { DELIVERY, placeOrder } from './support/shop';
import {
  countyOrder,
  countyPeople,
  mobile,
  site,
  today,
  type CountyOrder,
  type TrancheBody,
} from './support/tranches';
import { startTwoInstances, type TwoInstances } from './support/two-instances';
import type { TestApp } from './support/test-app';

interface Note {
  contentType: string;
  size: number;
  uploadedAt: string;
}

describe("a tranche's signed delivery note, attached as a photo or a scan", () => {
  let two: TwoInstances;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    two = await startTwoInstances('signed_note', { RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' });
    ({ a, b } = two);
  }, 120_000);
  afterAll(() => two.close());

  const world = () => two.world;
  const as = (s: Session) => bearer(s.accessToken);
  const staff = () => as(world().staff);
  const db = () => a.app.get<Connection>(getConnectionToken()).db!;
  const path = (o: { orderId: string }, n: number | string) =>
    `/api/orders/${o.orderId}/tranches/${n}/signed-note`;

  const attach = (
    o: { orderId: string },
    n: number | string,
    who: Session | null,
    file: Buffer,
    name = 'note.pdf',
    type?: string,
    via: TestApp = a,
  ) => {
    const req = via.http().put(path(o, n));
    if (who) void req.set(as(who));
    return req.attach('file', file, type ? { filename: name, contentType: type } : name);
  };
  const read = (o: { orderId: string }, n: number | string, who: Session | null) => {
    const req = a.http().get(path(o, n));
    if (who) void req.set(as(who));
    return req.buffer(true).parse(binary);
  };
  const jsonOf = (res: { body: unknown }) =>
    JSON.parse((res.body as Buffer).toString()) as { message: string; statusCode: number };

  /** The site of every T1 here, its contact named as nobody else in these tests. */
  const SITE = { ...site(), contact: { name: 'Esther Nyokabi', phone: mobile() } };

  /** A county's order with T1 (10 trays of ready stock) planned for today and, unless told, dispatched. */
  async function orderWithLoad(
    options: { dispatched?: boolean; people?: CountyOrder['people'] } = {},
  ): Promise<CountyOrder> {
    const o = await countyOrder(a, world(), options.people);
    await a
      .http()
      .post(`/api/orders/${o.orderId}/tranches`)
      .set(staff())
      .send({ site: SITE, date: today(), lines: [{ ...o.lines.stock, quantity: 10 }] })
      .expect(201);
    if (options.dispatched !== false)
      await a
        .http()
        .post(`/api/orders/${o.orderId}/tranches/1/dispatch`)
        .set(staff())
        .send({})
        .expect(200);
    return o;
  }

  const entries = (o: { orderId: string }) =>
    db()
      .collection('audit_logs')
      .find({ action: 'tranche.signed-note', 'target.id': o.orderId })
      .sort({ timestamp: 1 })
      .toArray();
  const stored = (o: { orderId: string }) =>
    db()
      .collection('scanned_documents')
      .find({ ownerId: o.orderId }, { projection: { bytes: 0 } })
      .toArray();
  const nothingKept = async (o: { orderId: string }) => {
    expect(await stored(o)).toEqual([]);
    expect(await entries(o)).toEqual([]);
  };

  it("staff attach a PDF once the load left; the organisation's people and the shop read it back byte for byte, in a sandbox; every view says so", async () => {
    const o = await orderWithLoad();
    const pdf = await scannedPdf('DELIVERY NOTE T1 signed P. Mwangi');
    const res = await attach(o, 1, world().staff, pdf).expect(200);
    const note: Note = {
      contentType: 'application/pdf',
      size: pdf.length,
      uploadedAt: expect.any(String),
    };
    expect(res.body.tranche).toMatchObject({ number: 1, state: 'Dispatched', signedNote: note });

    for (const who of [o.people.approver, o.people.buyer, world().staff, world().admin]) {
      const got = await read(o, 1, who).expect(200);
      expect(Buffer.compare(got.body as Buffer, pdf)).toBe(0);
      expect(got.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${o.purchaseNumber}-T1-signed.pdf"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': 'sandbox',
      });
    }

    // Every view of the tranche says what is attached: the order's tranches, the tranche, the lists.
    const own = await a.http().get(`/api/orders/${o.orderId}/tranches`).set(as(o.people.buyer));
    expect(own.body.tranches[0].signedNote).toEqual(res.body.tranche.signedNote);
    const one = await a.http().get(`/api/orders/${o.orderId}/tranches/1`).set(staff()).expect(200);
    expect(one.body.tranche.signedNote).toEqual(res.body.tranche.signedNote);
    const listed = await a.http().get('/api/tranches').set(as(o.people.approver)).expect(200);
    expect(
      listed.body.tranches.map((t: TrancheBody & { signedNote: Note | null }) => t.signedNote),
    ).toEqual([res.body.tranche.signedNote]);
    const desk = await a
      .http()
      .get(`/api/tranches?state=Dispatched&from=${today()}&to=${today()}&limit=100`)
      .set(staff())
      .expect(200);
    expect(
      desk.body.tranches.find((t: TrancheBody) => t.orderId === o.orderId)?.signedNote,
    ).toEqual(res.body.tranche.signedNote);

    // A second tranche, planned: none yet (null; its file 404 in words).
    await a
      .http()
      .post(`/api/orders/${o.orderId}/tranches`)
      .set(staff())
      .send({ site: site(), date: today(), lines: [{ ...o.lines.stock, quantity: 5 }] })
      .expect(201);
    const both = await a.http().get(`/api/orders/${o.orderId}/tranches`).set(staff()).expect(200);
    expect(both.body.tranches.map((t: { signedNote: Note | null }) => t.signedNote)).toEqual([
      res.body.tranche.signedNote,
      null,
    ]);
    const none = await read(o, 2, o.people.buyer).expect(404);
    expect(jsonOf(none).message).toBe(SM.none(o.purchaseNumber, 'T2'));

    // One entry in the order's trail, by the clerk, naming the paper but nobody in it.
    const trail = await entries(o);
    expect(trail).toHaveLength(1);
    expect(trail[0]!.message).toMatch(
      new RegExp(
        `attached the signed delivery note of tranche T1 of order ${o.purchaseNumber}: PDF, \\d+ KB$`,
      ),
    );
    expect(trail[0]!.message).not.toMatch(/Nyokabi|Esther|\+254|07\d{8}/);
    const detail = await a.http().get(`/api/orders/${o.orderId}/detail`).set(staff()).expect(200);
    expect(
      (detail.body.timeline as { step: string; by: string | null }[]).filter(
        (e) => e.step === 'Signed note attached',
      ),
    ).toEqual([expect.objectContaining({ by: world().staff.user.fullName })]);
    // The shop's reads are exports in the trail (staff and admin: two); the organisation's are not.
    const exports = await db()
      .collection('audit_logs')
      .find({ action: 'order.document', 'target.id': `${o.purchaseNumber}-T1-signed.pdf` })
      .toArray();
    expect(exports.map((e) => e.performedBy.role).sort()).toEqual(['admin', 'staff']);
  });

  it('replaces the note on a delivered tranche with a phone photo: one kept, upright, without where it was taken or the phone', async () => {
    const o = await orderWithLoad();
    await a
      .http()
      .post(`/api/orders/${o.orderId}/tranches/1/delivery`)
      .set(staff())
      .send({ signedBy: 'Peter Mwangi', signedAt: new Date().toISOString() })
      .expect(200);
    await attach(o, 1, world().admin, await scannedPdf()).expect(200);
    const photo = await phonePhoto(1200, 900);
    expect(photo.includes(Buffer.from('Tecno'))).toBe(true);
    const res = await attach(o, 1, world().staff, photo, 'IMG_0042.jpg', 'image/jpeg').expect(200);
    expect(res.body.tranche).toMatchObject({
      state: 'Delivered',
      signedBy: 'Peter Mwangi',
      signedNote: { contentType: 'image/jpeg' },
    });

    const got = await read(o, 1, o.people.approver).expect(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['content-disposition']).toBe(
      `inline; filename="${o.purchaseNumber}-T1-signed.jpg"`,
    );
    const served = got.body as Buffer;
    expect(served.length).toBe(res.body.tranche.signedNote.size);
    const meta = await sharp(served).metadata();
    expect(meta.format).toBe('jpeg');
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 900, height: 1200 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.includes(Buffer.from('Tecno'))).toBe(false);
    expect(served.includes(Buffer.from('Exif'))).toBe(false);

    const kept = await stored(o);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      ownerKind: 'order',
      kind: 'signedNote:T1',
      organisationId: o.people.organisationId,
      contentType: 'image/jpeg',
      uploadedById: world().staff.user._id,
      uploadedByRole: 'staff',
    });
    expect((await entries(o)).map((e) => e.message.split(' the signed')[0])).toEqual([
      `${world().admin.user.fullName} attached`,
      `${world().staff.user.fullName} replaced`,
    ]);
  });

  it('refuses a planned or a cancelled tranche with 409 in words, an unknown tranche or order with 404, keeping nothing', async () => {
    const o = await orderWithLoad({ dispatched: false });
    const pdf = await scannedPdf();
    const planned = await attach(o, 1, world().staff, pdf).expect(409);
    expect(planned.body).toMatchObject({ code: 'ILLEGAL_TRANSITION' });
    expect(planned.body.message).toBe(
      `Tranche T1 of order ${o.purchaseNumber} is only planned: only a tranche that left (dispatched or delivered) has a signed delivery note to attach`,
    );
    await a.http().post(`/api/orders/${o.orderId}/tranches/1/cancel`).set(staff()).expect(200);
    const cancelled = await attach(o, 1, world().admin, pdf).expect(409);
    expect(cancelled.body.message).toMatch(
      /^Tranche T1 of order \w+ was cancelled on \d{4}-\d\d-\d\d: only a tranche that left/,
    );

    const noTranche = await attach(o, 7, world().staff, pdf).expect(404);
    expect(noTranche.body.message).toBe(TM.noTranche(o.purchaseNumber, 7));
    expect(jsonOf(await read(o, 7, o.people.buyer).expect(404)).message).toBe(
      TM.noTranche(o.purchaseNumber, 7),
    );
    const unknown = { orderId: '0123456789abcdef01234567' };
    expect((await attach(unknown, 1, world().staff, pdf).expect(404)).body.message).toBe(
      'No order with this id',
    );
    await attach({ orderId: 'not-an-id' }, 1, world().staff, pdf).expect(400);
    await nothingKept(o);

    // An ordinary order (not from a quotation) has no tranches: 409 in the tranches' words.
    const shopper = await registerCustomer(a);
    const placed = await placeOrder(a, [{ _id: world().productId, quantity: 1 }], {
      token: shopper.accessToken,
      guestInfo: DELIVERY,
    }).expect(201);
    const ordinary = { orderId: placed.body.order._id as string };
    const refused = await attach(ordinary, 1, world().staff, pdf).expect(409);
    expect(refused.body.message).toContain('was not made from a quotation');
    await read(ordinary, 1, shopper).expect(404);
  });

  describe('checked by its bytes, never by its name or declared type', () => {
    let o: CountyOrder;
    beforeAll(async () => {
      o = await orderWithLoad();
    });
    afterEach(async () => {
      await read(o, 1, world().staff).expect(404);
      await nothingKept(o);
    });

    it('refuses a text file named note.pdf and declared application/pdf with 415 in words', async () => {
      const res = await attach(
        o,
        1,
        world().staff,
        Buffer.from('Received 500 seedlings, signed P. Mwangi\n'),
        'note.pdf',
        'application/pdf',
      ).expect(415);
      expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: SM.unsupported });
      expect(SM.unsupported).toBe(
        'A signed delivery note must be a PDF or a photo (JPEG, PNG or WebP)',
      );
    });

    it('refuses HTML before a PDF header, a PDF cut short, and an HTML page declared image/jpeg, with 415', async () => {
      const pdf = await scannedPdf();
      const polyglot = Buffer.concat([
        Buffer.from('<html><script>alert(1)</script></html>\n'),
        pdf,
      ]);
      await attach(o, 1, world().staff, polyglot).expect(415);
      await attach(o, 1, world().staff, pdf.subarray(0, pdf.length >> 1)).expect(415);
      const html = Buffer.from('<!doctype html><script>fetch("/api/users/profile")</script>');
      await attach(o, 1, world().staff, html, 'note.jpg', 'image/jpeg').expect(415);
      await attach(
        o,
        1,
        world().staff,
        Buffer.from('GIF89a\x01\x00\x01\x00'),
        'n.gif',
        'image/gif',
      ).expect(415);
    });

    it('refuses a broken photo and a PNG claiming 900 megapixels with 422', async () => {
      const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 7)]);
      await attach(o, 1, world().staff, broken, 'note.jpg').expect(422);
      await attach(o, 1, world().staff, pngBomb(30_000, 30_000), 'note.png').expect(422);
    });

    it('refuses a file over 5 MB with 413 in words (also one of 12 MB), an empty one, none, or two with 400', async () => {
      const pdf = await scannedPdf();
      for (const pad of [5 * 1024 * 1024, 12 * 1024 * 1024]) {
        const big = Buffer.concat([pdf.subarray(0, 9), Buffer.alloc(pad, 0x20), pdf]);
        const res = await attach(o, 1, world().staff, big).expect(413);
        expect(res.body.message).toBe(SM.tooLarge);
      }
      expect(SM.tooLarge).toBe('A signed delivery note must be at most 5 MB');
      expect((await attach(o, 1, world().staff, Buffer.alloc(0)).expect(400)).body.message).toBe(
        SM.chooseFile,
      );
      const none = await a.http().put(path(o, 1)).set(staff()).field('note', 'x').expect(400);
      expect(none.body.message).toBe(SM.chooseFile);
      const elsewhere = await a
        .http()
        .put(path(o, 1))
        .set(staff())
        .attach('photo', pdf, 'note.pdf')
        .expect(400);
      expect(elsewhere.body.message).toBe(SM.chooseFile);
      await a
        .http()
        .put(path(o, 1))
        .set(staff())
        .attach('file', pdf, 'a.pdf')
        .attach('file', pdf, 'b.pdf')
        .expect(400);
      await a.http().put(path(o, 1)).set(staff()).send({ file: 'JVBERi0=' }).expect(415);
    });

    it('refuses a body that is not a form: a raw photo, or a form whose parts cannot be read', async () => {
      const photo = await phonePhoto(400, 300);
      const raw = await a
        .http()
        .put(path(o, 1))
        .set(staff())
        .set('Content-Type', 'image/jpeg')
        .send(photo);
      expect(raw.status).toBe(415);
      const garbled = await a
        .http()
        .put(path(o, 1))
        .set(staff())
        .set('Content-Type', 'multipart/form-data; boundary=----x')
        .send(
          '------x\r\nContent-Disposition: form-data; name="file"; filename="n.pdf"\r\n\r\n%PDF-1.7',
        );
      expect(garbled.status).toBe(400);
    });
  });

  describe('who may', () => {
    let o: CountyOrder;
    beforeAll(async () => {
      o = await orderWithLoad();
      await attach(o, 1, world().staff, await scannedPdf()).expect(200);
    });

    it('answers 401 without a token; refuses every customer, even of the organisation, with 403', async () => {
      const pdf = await scannedPdf('forged');
      await attach(o, 1, null, pdf).expect(401);
      await read(o, 1, null).expect(401);
      const elsewhere = await countyPeople(a, world());
      const stranger = await registerCustomer(a);
      for (const who of [o.people.approver, o.people.buyer, elsewhere.approver, stranger])
        await attach(o, 1, who, pdf).expect(403);
      expect(await entries(o)).toHaveLength(1);
    });

    it("answers another organisation's people and a stranger 404 as for an unknown order, for a note there or not", async () => {
      const elsewhere = await countyPeople(a, world());
      const stranger = await registerCustomer(a);
      for (const who of [elsewhere.approver, elsewhere.buyer, stranger])
        for (const n of [1, 2, 50]) {
          const res = await read(o, n, who).expect(404);
          expect(jsonOf(res).message).toBe('No order with this id');
        }
      // Their own organisation's list has no note of it.
      const theirs = await a.http().get('/api/tranches').set(as(elsewhere.buyer)).expect(200);
      expect(theirs.body.tranches).toEqual([]);
    });

    it('names a tranche by its number in digits only: every other spelling is a 400 in words, nothing kept', async () => {
      const p = await orderWithLoad();
      const pdf = await scannedPdf();
      for (const n of [
        'T1',
        't1',
        '01',
        '1.0',
        '+1',
        '1e0',
        '0x1',
        ' 1',
        '１',
        '0',
        '51',
        '1000',
        '-1',
      ]) {
        const put = await attach(p, encodeURIComponent(n), world().staff, pdf);
        expect({ n, status: put.status }).toEqual({ n, status: n === '51' ? 404 : 400 });
        if (put.status === 400) expect(put.body.message).toContain('is not a tranche');
        const get = await read(p, encodeURIComponent(n), world().staff);
        expect({ n, status: get.status }).toEqual({ n, status: n === '51' ? 404 : 400 });
      }
      await nothingKept(p);
    });
  });

  describe('attacked', () => {
    it('the same photo five times at once, over two API instances, is written once: one entry in the trail', async () => {
      const o = await orderWithLoad();
      // A photo: each copy waits for its decode, so all five are past the first look before any write.
      const photo = await phonePhoto(2400, 1800);
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          attach(o, 1, world().staff, photo, 'note.jpg', undefined, i % 2 ? b : a),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.body.tranche.signedNote.uploadedAt)).size).toBe(1);
      expect(await entries(o)).toHaveLength(1);
      expect(await stored(o)).toHaveLength(1);
      // Sent again later: nothing more.
      await attach(o, 1, world().admin, photo, 'again.jpg', undefined, b).expect(200);
      expect(await entries(o)).toHaveLength(1);
    });

    it('two different notes at once on two instances leave one of them, whole', async () => {
      const o = await orderWithLoad();
      const [x, y] = [await scannedPdf('first copy'), await scannedPdf('second copy')];
      const answers = await Promise.all([
        attach(o, 1, world().staff, x, 'x.pdf', undefined, a),
        attach(o, 1, world().admin, y, 'y.pdf', undefined, b),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(await stored(o)).toHaveLength(1);
      const got = (await read(o, 1, o.people.buyer).expect(200)).body as Buffer;
      expect([x, y].some((f) => Buffer.compare(f, got) === 0)).toBe(true);
    });

    it('a PDF carrying HTML, sent as text/html, is served as a PDF in a sandbox under its own name', async () => {
      const o = await orderWithLoad();
      const pdf = await scannedPdf();
      const html = Buffer.from('<html><script>fetch("/api/users/profile")</script></html>\n');
      const crafted = Buffer.concat([pdf.subarray(0, 15), html, pdf.subarray(15)]);
      await attach(o, 1, world().staff, crafted, 'x.html', 'text/html').expect(200);
      const got = await read(o, 1, o.people.buyer).expect(200);
      expect(got.headers['content-type']).toBe('application/pdf');
      expect(got.headers['content-security-policy']).toBe('sandbox');
      expect(got.headers['content-disposition']).toBe(
        `inline; filename="${o.purchaseNumber}-T1-signed.pdf"`,
      );
    });

    it("each tranche keeps its own note: T1's is not T10's, nor the order's LPO", async () => {
      const o = await orderWithLoad();
      for (let i = 2; i <= 10; i++)
        await a
          .http()
          .post(`/api/orders/${o.orderId}/tranches`)
          .set(staff())
          .send({ site: site(), date: today(), lines: [{ ...o.lines.stock, quantity: 1 }] })
          .expect(201);
      await a.http().post(`/api/orders/${o.orderId}/tranches/10/dispatch`).set(staff()).expect(200);
      const one = await scannedPdf('T1');
      const ten = await scannedPdf('T10');
      await attach(o, 1, world().staff, one).expect(200);
      await attach(o, 10, world().staff, ten).expect(200);
      expect(Buffer.compare((await read(o, 1, world().staff)).body as Buffer, one)).toBe(0);
      expect(Buffer.compare((await read(o, 10, world().staff)).body as Buffer, ten)).toBe(0);
      const all = await a.http().get(`/api/orders/${o.orderId}/tranches`).set(staff()).expect(200);
      expect(
        all.body.tranches.map((t: { label: string; signedNote: Note | null }) => [
          t.label,
          t.signedNote?.size ?? null,
        ]),
      ).toEqual([
        ['T1', one.length],
        ...Array.from({ length: 8 }, (_, i) => [`T${i + 2}`, null]),
        ['T10', ten.length],
      ]);
      // The order's scanned LPO is another paper.
      await a.http().get(`/api/orders/${o.orderId}/lpo-scan`).set(staff()).expect(404);
    });
  });

  describe('the people in it', () => {
    it("the uploader's export lists it as a signed delivery note, without the file; their erasure leaves it nobody's", async () => {
      const o = await orderWithLoad();
      await attach(o, 1, world().admin, await scannedPdf()).expect(200);
      const owner = a.app.get(ScansPersonalData);
      const subject = {
        accountId: world().admin.user._id,
        orderIds: [],
        purchaseNumbers: [],
        phones: [],
        emails: [],
        names: [],
        otherIds: [],
        provenPhones: [],
        provenEmails: [],
      } as unknown as Parameters<ScansPersonalData['export']>[0];
      const mine = await owner.export(subject);
      expect(mine.scannedDocuments).toEqual(
        expect.arrayContaining([
          {
            kind: 'signed delivery note',
            contentType: 'application/pdf',
            size: expect.any(Number),
            uploadedAt: expect.any(Date),
          },
        ]),
      );
      expect(JSON.stringify(mine)).not.toMatch(/signedNote|JVBERi0/);
      await owner.erase(subject);
      const [kept] = await stored(o);
      expect(kept).toMatchObject({ kind: 'signedNote:T1', uploadedById: null });
      await read(o, 1, o.people.buyer).expect(200);
    });

    it('an order deleted takes its signed notes along', async () => {
      // A load that left puts its order in transit, which is never deleted; the order is put back
      // as a cancelled, unpaid one by hand to see its deletion take every paper of it.
      const o = await orderWithLoad();
      await attach(o, 1, world().staff, await scannedPdf()).expect(200);
      await a
        .http()
        .put(`/api/orders/${o.orderId}/lpo-scan`)
        .set(staff())
        .attach('file', await scannedPdf('LPO'), 'lpo.pdf')
        .expect(200);
      expect(await stored(o)).toHaveLength(2);
      await db()
        .collection('orders')
        .updateOne({ _id: new Types.ObjectId(o.orderId) }, { $set: { orderStatus: 'Cancelled' } });
      await a.http().delete(`/api/orders/delete/${o.orderId}`).set(as(world().admin)).expect(200);
      expect(await stored(o)).toEqual([]);
    });
  });
});
