/**
 * The scanned LPO of an order made from a quotation (issue 42), on the real database: the
 * organisation's approver (or staff, on the buyer's word) attaches the paper as a PDF or a photo;
 * every person of the organisation and the shop read it back; it is checked by its bytes (never its
 * name or declared type), a photo loses where it was taken; it is private (never in the public
 * uploads) and served so that no file can run script in the API's origin.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import sharp from 'sharp';
import { LPO_SCAN_MESSAGES as LM } from '@spc/shared-contracts';
import { pngBomb } from './support/factories';
import { addPerson } from './support/organisations';
import {
  bearer,
  registerCustomer,
  STRONG_PASSWORD,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import {
  acceptedOrder,
  organisationWithBuyer,
  phonePhoto,
  scannedPdf,
  type AcceptedOrder,
  type Organisation,
} from './support/lpo-scans';
import { binary, trayProduct, type TrayProduct } from './support/quotations';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

interface TimelineEntry {
  step: string;
  text: string;
  by: string | null;
}

describe('the scanned LPO of an order from a quotation', () => {
  let t: TestApp;
  let world: ShopWorld;
  let county: Organisation;
  let other: Organisation;
  let tray: TrayProduct;

  beforeAll(async () => {
    t = await createTestApp({
      name: 'lpo_scan',
      env: { ...UNTHROTTLED, RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' },
    });
    world = await createShopWorld(t);
    [county, other] = [
      await organisationWithBuyer(t, world),
      await organisationWithBuyer(t, world),
    ];
    tray = await trayProduct(t, world, 100_000);
  }, 90_000);
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const order = (acceptor: Session = county.approver, org: Organisation = county) =>
    acceptedOrder(t, world, org, tray, acceptor);

  const attach = (
    orderId: string,
    who: Session | null,
    file: Buffer,
    name = 'lpo.pdf',
    type?: string,
  ) => {
    const req = t.http().put(`/api/orders/${orderId}/lpo-scan`);
    if (who) void req.set(as(who));
    return req.attach('file', file, type ? { filename: name, contentType: type } : name);
  };
  const read = (orderId: string, who: Session | null) => {
    const req = t.http().get(`/api/orders/${orderId}/lpo-scan`);
    if (who) void req.set(as(who));
    return req.buffer(true).parse(binary);
  };
  const timeline = async (orderId: string) =>
    (await t.http().get(`/api/orders/${orderId}/detail`).set(as(world.staff)).expect(200)).body
      .timeline as TimelineEntry[];
  const scanSteps = async (orderId: string) =>
    (await timeline(orderId)).filter((e) => e.step === 'Scanned LPO attached');
  const storedScans = (orderId: string) =>
    db().collection('scanned_documents').countDocuments({ ownerId: orderId });

  it('an approver attaches a PDF; a buyer of the organisation and staff read it back byte for byte, in a sandbox', async () => {
    const o = await order(county.approver);
    const pdf = await scannedPdf();
    const res = await attach(o.orderId, county.approver, pdf).expect(200);
    expect(res.body.lpoScan).toEqual({
      contentType: 'application/pdf',
      size: pdf.length,
      uploadedAt: expect.any(String),
    });

    for (const who of [county.buyer, county.approver, world.staff, world.admin]) {
      const got = await read(o.orderId, who).expect(200);
      expect(Buffer.compare(got.body as Buffer, pdf)).toBe(0);
      expect(got.headers['content-type']).toBe('application/pdf');
      expect(got.headers['content-disposition']).toBe(
        `inline; filename="LPO-${o.lpoNumber.replace(/\//g, '-')}.pdf"`,
      );
      expect(got.headers['cache-control']).toBe('private, no-store');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-security-policy']).toBe('sandbox');
    }

    // The order views say there is one, next to its LPO number; so does the quotation.
    const staffView = await t
      .http()
      .get(`/api/orders/${o.orderId}`)
      .set(as(world.staff))
      .expect(200);
    expect(staffView.body.order.quotation).toEqual(
      expect.objectContaining({ lpoNumber: o.lpoNumber, lpoScan: res.body.lpoScan }),
    );
    const own = await t
      .http()
      .get(`/api/orders/${o.orderId}/detail`)
      .set(as(county.approver))
      .expect(200);
    expect(own.body.order.quotation.lpoScan).toEqual(res.body.lpoScan);
    const quotation = await t
      .http()
      .get(`/api/quotations/${o.quotationId}`)
      .set(as(county.buyer))
      .expect(200);
    expect(quotation.body.quotation.acceptance.lpoScan).toEqual(res.body.lpoScan);

    // One entry in the order's trail, naming who attached what, never the bytes.
    const steps = await scanSteps(o.orderId);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.by).toBe(county.approver.user.fullName);
    expect(steps[0]!.text).toMatch(/PDF, \d+ KB/);
  });

  it('says there is none before one is attached: 404 in words, null in the views', async () => {
    const o = await order(world.staff);
    const res = await read(o.orderId, county.buyer).expect(404);
    expect(JSON.parse((res.body as Buffer).toString())).toMatchObject({
      statusCode: 404,
      message: LM.none,
    });
    const view = await t.http().get(`/api/orders/${o.orderId}`).set(as(world.staff)).expect(200);
    expect(view.body.order.quotation.lpoScan).toBeNull();
    const q = await t.http().get(`/api/quotations/${o.quotationId}`).set(as(county.approver));
    expect(q.body.quotation.acceptance.lpoScan).toBeNull();
  });

  it("staff attach it on the buyer's word; sending the same file again changes nothing", async () => {
    const o = await order(world.staff);
    const pdf = await scannedPdf('LPO sent by e-mail');
    const first = await attach(o.orderId, world.staff, pdf).expect(200);
    const again = await attach(o.orderId, world.staff, pdf).expect(200);
    expect(again.body.lpoScan).toEqual(first.body.lpoScan);
    expect(await scanSteps(o.orderId)).toHaveLength(1);
    expect(await storedScans(o.orderId)).toBe(1);
    // An admin may too (the matrix: every role of the shop).
    await attach(o.orderId, world.admin, await scannedPdf('LPO, clearer copy')).expect(200);
    expect(await scanSteps(o.orderId)).toHaveLength(2);
  });

  it('takes a photo as an upright JPEG without its EXIF: not where it was taken, nor the phone', async () => {
    const o = await order();
    const photo = await phonePhoto(1200, 900);
    expect(photo.includes(Buffer.from('Tecno'))).toBe(true);
    const res = await attach(o.orderId, county.approver, photo, 'IMG_2041.jpg').expect(200);
    expect(res.body.lpoScan.contentType).toBe('image/jpeg');
    const got = await read(o.orderId, county.buyer).expect(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['content-disposition']).toMatch(
      /^inline; filename="LPO-[A-Za-z0-9-]+\.jpg"$/,
    );
    const served = got.body as Buffer;
    expect(served.length).toBe(res.body.lpoScan.size);
    const meta = await sharp(served).metadata();
    expect(meta.format).toBe('jpeg');
    // Turned upright (it was taken sideways), with no EXIF, ICC or XMP left.
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 900, height: 1200 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.includes(Buffer.from('Tecno'))).toBe(false);
    expect(served.includes(Buffer.from('Exif'))).toBe(false);
  });

  it('replacing a scan keeps one: the PDF then a PNG photo, the photo is what is read', async () => {
    const o = await order();
    await attach(o.orderId, county.approver, await scannedPdf()).expect(200);
    const png = await sharp({
      create: { width: 600, height: 800, channels: 4, background: '#ffffffcc' },
    })
      .png()
      .toBuffer();
    const res = await attach(o.orderId, county.approver, png, 'scan.png').expect(200);
    expect(res.body.lpoScan.contentType).toBe('image/jpeg');
    const got = await read(o.orderId, world.staff).expect(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(got.body as Buffer).metadata()).format).toBe('jpeg');
    expect(await storedScans(o.orderId)).toBe(1);
    expect(await scanSteps(o.orderId)).toHaveLength(2);
  });

  describe('checked by its bytes, never by its name or declared type', () => {
    let o: AcceptedOrder;
    beforeAll(async () => {
      o = await order();
    });
    const nothingStored = async () => {
      await read(o.orderId, world.staff).expect(404);
      expect(await storedScans(o.orderId)).toBe(0);
      expect(await scanSteps(o.orderId)).toEqual([]);
    };

    it('refuses a text file named lpo.pdf and declared application/pdf with 415 in words', async () => {
      const res = await attach(
        o.orderId,
        county.approver,
        Buffer.from('LPO number 114, 300 seedlings, signed J. Kariuki\n'),
        'lpo.pdf',
        'application/pdf',
      ).expect(415);
      expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: LM.unsupported });
      await nothingStored();
    });

    it('refuses HTML before a PDF header, and a PDF cut short (no %%EOF), with 415', async () => {
      const pdf = await scannedPdf();
      const polyglot = Buffer.concat([
        Buffer.from('<html><body><script>alert(document.domain)</script></body></html>\n'),
        pdf,
      ]);
      expect((await attach(o.orderId, county.approver, polyglot).expect(415)).body.message).toBe(
        LM.unsupported,
      );
      const cut = pdf.subarray(0, Math.floor(pdf.length / 2));
      await attach(o.orderId, county.approver, cut).expect(415);
      await nothingStored();
    });

    it('refuses a broken photo (a JPEG header, then nothing an image is made of) with 422', async () => {
      const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 7)]);
      const res = await attach(o.orderId, county.approver, broken, 'scan.jpg').expect(422);
      expect(res.body.message).toBe('The image could not be read; it may be damaged');
      await nothingStored();
    });

    it('refuses a tiny PNG claiming 900 megapixels with 422 from its header', async () => {
      const bomb = pngBomb(30_000, 30_000);
      const res = await attach(o.orderId, county.approver, bomb, 'scan.png').expect(422);
      expect(res.body.message).toBe('The image is too large in dimensions (at most 40 megapixels)');
      await nothingStored();
    });

    it('refuses a file over 5 MB with 413, an empty one and a form without one with 400', async () => {
      const pdf = await scannedPdf();
      const big = Buffer.concat([pdf.subarray(0, 9), Buffer.alloc(5 * 1024 * 1024, 0x20), pdf]);
      const res = await attach(o.orderId, county.approver, big).expect(413);
      expect(res.body.message).toBe(LM.tooLarge);
      await attach(o.orderId, county.approver, Buffer.alloc(0)).expect(400);
      const none = await t
        .http()
        .put(`/api/orders/${o.orderId}/lpo-scan`)
        .set(as(county.approver))
        .field('note', 'no file')
        .expect(400);
      expect(none.body.message).toBe(LM.chooseFile);
      await t
        .http()
        .put(`/api/orders/${o.orderId}/lpo-scan`)
        .set(as(county.approver))
        .send({ file: 'JVBERi0=' })
        .expect(415);
      await nothingStored();
    });
  });

  describe('who may', () => {
    let o: AcceptedOrder;
    beforeAll(async () => {
      o = await order();
    });

    it('answers 401 without a token', async () => {
      await attach(o.orderId, null, await scannedPdf()).expect(401);
      await read(o.orderId, null).expect(401);
    });

    it('refuses a buyer who is not an approver with 403 in words', async () => {
      const res = await attach(o.orderId, county.buyer, await scannedPdf()).expect(403);
      expect(res.body.message).toBe(LM.notApprover);
      expect(await storedScans(o.orderId)).toBe(0);
    });

    it("answers another organisation's approver and buyer, and a stranger, 404 as for an unknown order", async () => {
      await attach(o.orderId, world.staff, await scannedPdf()).expect(200);
      const stranger = await registerCustomer(t);
      const unknown = '0123456789abcdef01234567';
      const missing = await t
        .http()
        .get(`/api/orders/${unknown}`)
        .set(as(other.approver))
        .expect(404);
      for (const who of [other.approver, other.buyer, stranger]) {
        for (const id of [o.orderId, unknown]) {
          const put = await attach(id, who, await scannedPdf('forged')).expect(404);
          expect(put.body.message).toBe(missing.body.message);
          const get = await read(id, who).expect(404);
          expect(JSON.parse((get.body as Buffer).toString()).message).toBe(missing.body.message);
        }
      }
      // The scan is the one staff attached.
      expect((await scanSteps(o.orderId)).map((s) => s.by)).toEqual([world.staff.user.fullName]);
      await t.http().get('/api/orders/not-an-id/lpo-scan').set(as(world.staff)).expect(400);
    });

    it('a person who left the organisation no longer reads it', async () => {
      const leaver = await registerCustomer(t);
      await addPerson(t, county.organisationId, county.approver, leaver, 'buyer');
      await read(o.orderId, leaver).expect(200);
      await t
        .http()
        .delete(`/api/organisations/${county.organisationId}/people/${leaver.user._id}`)
        .set(as(county.approver))
        .expect((res) => expect(res.status).toBeLessThan(300));
      await read(o.orderId, leaver).expect(404);
    });

    it('refuses an ordinary order (not from a quotation) with 409 in words; a stranger 404', async () => {
      const shopper = await registerCustomer(t);
      const placed = await placeOrder(t, [{ _id: tray.productId, quantity: 1 }], {
        token: shopper.accessToken,
        guestInfo: DELIVERY,
      }).expect(201);
      const id = placed.body.order._id as string;
      for (const who of [world.staff, shopper]) {
        const res = await attach(id, who, await scannedPdf()).expect(409);
        expect(res.body.message).toBe(LM.notFromQuotation);
      }
      const got = await read(id, world.staff).expect(409);
      expect(JSON.parse((got.body as Buffer).toString()).message).toBe(LM.notFromQuotation);
      await attach(id, county.approver, await scannedPdf()).expect(404);
    });
  });

  describe('the people in it', () => {
    it("the uploader's export lists what they attached without the file; another's lists none; their erasure leaves the scan nobody's", async () => {
      const org = await organisationWithBuyer(t, world);
      const o = await order(org.approver, org);
      await attach(o.orderId, org.approver, await scannedPdf()).expect(200);
      const mine = JSON.parse(
        (await t.http().get('/api/users/profile/data-export').set(as(org.approver)).expect(200))
          .text,
      );
      expect(mine.scannedDocuments).toEqual([
        {
          kind: 'scanned LPO',
          contentType: 'application/pdf',
          size: expect.any(Number),
          uploadedAt: expect.any(String),
        },
      ]);
      expect(JSON.stringify(mine)).not.toContain('JVBERi0'); // no PDF bytes (base64 of %PDF-)
      const buyers = JSON.parse(
        (await t.http().get('/api/users/profile/data-export').set(as(org.buyer)).expect(200)).text,
      );
      expect(buyers.scannedDocuments).toEqual([]);

      // Their order settled (the shop cancels it), they delete their account.
      await t
        .http()
        .patch(`/api/orders/cancel/${o.orderId}`)
        .set(as(world.staff))
        .send({})
        .expect(200);
      await t
        .http()
        .post('/api/users/profile/delete')
        .set(as(org.approver))
        .send({ password: STRONG_PASSWORD })
        .expect(200);
      const kept = await db().collection('scanned_documents').findOne({ ownerId: o.orderId });
      expect(kept).not.toBeNull();
      expect(kept!.uploadedById).toBeNull();
      expect(JSON.stringify(kept, (k, v) => (k === 'bytes' ? undefined : v))).not.toContain(
        org.approver.user._id,
      );
      // The organisation's buyer still reads its LPO.
      await read(o.orderId, org.buyer).expect(200);
    });

    it('an order deleted by an admin takes its scan along', async () => {
      const o = await order();
      await attach(o.orderId, county.approver, await scannedPdf()).expect(200);
      await t
        .http()
        .patch(`/api/orders/cancel/${o.orderId}`)
        .set(as(world.staff))
        .send({})
        .expect(200);
      await t.http().delete(`/api/orders/delete/${o.orderId}`).set(as(world.admin)).expect(200);
      expect(await storedScans(o.orderId)).toBe(0);
    });
  });

  describe('attacked', () => {
    it('two different scans sent at once leave one of them, whole', async () => {
      const o = await order();
      const [a, b] = [await scannedPdf('first'), await scannedPdf('second')];
      const answers = await Promise.all([
        attach(o.orderId, county.approver, a),
        attach(o.orderId, world.staff, b),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(await storedScans(o.orderId)).toBe(1);
      const got = (await read(o.orderId, county.buyer).expect(200)).body as Buffer;
      expect([a, b].some((f) => Buffer.compare(f, got) === 0)).toBe(true);
    });

    it('the same scan sent five times at once is written once: one entry in the trail', async () => {
      // A photo: each copy waits for its decode, so all five are past the first look for a scan
      // before any is written.
      const o = await order();
      const photo = await phonePhoto(2400, 1800);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => attach(o.orderId, county.approver, photo, 'lpo.jpg')),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.body.lpoScan.uploadedAt)).size).toBe(1);
      expect(await scanSteps(o.orderId)).toHaveLength(1);
      expect(await storedScans(o.orderId)).toBe(1);
    });

    it('a PDF carrying HTML is served as a PDF in a sandbox, never as HTML, whatever its name', async () => {
      const o = await order();
      const pdf = await scannedPdf();
      const html = Buffer.from('<html><script>fetch("/api/users/profile")</script></html>\n');
      const polyglot = Buffer.concat([pdf.subarray(0, 15), html, pdf.subarray(15)]);
      await attach(o.orderId, county.approver, polyglot, 'x.html', 'text/html').expect(200);
      const got = await read(o.orderId, county.buyer).expect(200);
      expect(got.headers['content-type']).toBe('application/pdf');
      expect(got.headers['content-security-policy']).toBe('sandbox');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-disposition']).not.toMatch(/html/);
    });

    it('a photo carrying HTML (in a comment, after its end) is kept without it', async () => {
      const o = await order();
      const photo = await phonePhoto(800, 600);
      const html = Buffer.from('<html><script>fetch("/api/users/profile")</script></html>');
      const comment = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(2), html]);
      comment.writeUInt16BE(html.length + 2, 2);
      const crafted = Buffer.concat([photo.subarray(0, 2), comment, photo.subarray(2), html]);
      expect((await sharp(crafted).metadata()).format).toBe('jpeg');
      await attach(o.orderId, county.approver, crafted, 'lpo.html', 'text/html').expect(200);
      const got = await read(o.orderId, county.buyer).expect(200);
      expect(got.headers['content-type']).toBe('image/jpeg');
      expect((got.body as Buffer).includes(Buffer.from('<script'))).toBe(false);
    });

    it('an LPO number full of path and header characters gives a plain filename', async () => {
      const o = await acceptedOrder(
        t,
        world,
        county,
        tray,
        county.approver,
        '../..\\KCG/"LPO";114 ü',
      );
      await attach(o.orderId, county.approver, await scannedPdf()).expect(200);
      const got = await read(o.orderId, world.staff).expect(200);
      expect(got.headers['content-disposition']).toBe('inline; filename="LPO-KCG-LPO-114-u.pdf"');
    });

    it('is never among the public uploads', async () => {
      const o = await order();
      const pdf = await scannedPdf();
      const res = await attach(o.orderId, county.approver, pdf).expect(200);
      expect(JSON.stringify(res.body)).not.toMatch(/uploads|https?:/);
      const doc = await db().collection('scanned_documents').findOne({ ownerId: o.orderId });
      expect(doc).toMatchObject({
        kind: 'lpo',
        ownerKind: 'order',
        organisationId: county.organisationId,
      });
    });
  });
});
