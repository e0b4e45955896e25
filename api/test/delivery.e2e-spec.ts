/**
 * Delivery zones and collection at the nursery: the fee an order pays comes from the shop's zones
 * (sub-county rule, then county rule, then the rest of Kenya), never from the client, and M-Pesa
 * Express asks for the total including it (the Daraja simulator records the amount asked).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NURSERY_COLLECTION } from '@spc/shared-contracts';
import { bearer, registerCustomer, type Session } from './support/identity';
import { createMpesaTestApp, type MpesaTestApp } from './support/mpesa';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';

const DAY_MS = 24 * 60 * 60 * 1000;
let phoneSeq = Math.floor(Math.random() * 80_000_000);
const newPhone = () => `07${10_000_000 + phoneSeq++}`;

interface Option {
  method: 'delivery' | 'collection';
  zoneName: string;
  fee: number;
  days: number;
  estimatedDeliveryDate: string;
  address?: string;
  openingHours?: string;
}

describe('Delivery zones', () => {
  let m: MpesaTestApp;
  let dataDir: string;
  let admin: Session;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'spc-delivery-'));
    m = await createMpesaTestApp('delivery', { DATA_DIR: dataDir });
    ({ admin, staff, productId } = await createShopWorld(m.t, {
      product: { price: 450, quantity: 10_000 },
    }));
  });
  afterAll(() => m.close());

  const http = () => m.t.http();

  async function options(county: string, subCounty?: string): Promise<Option[]> {
    const res = await http()
      .get('/api/delivery/options')
      .query(subCounty ? { county, subCounty } : { county })
      .expect(200);
    expect(res.body.success).toBe(true);
    return res.body.options as Option[];
  }
  const deliveryOf = async (county: string, subCounty?: string) =>
    (await options(county, subCounty)).find((o) => o.method === 'delivery')!;

  function createZone(body: object, token = admin.accessToken) {
    return http().post('/api/delivery/zones').set(bearer(token)).send(body);
  }

  function order(place: { county: string; subCounty?: string }, extra: object = {}) {
    return http()
      .post('/api/orders')
      .send({
        guestInfo: { ...DELIVERY, ...place, ward: '', phoneNumber: newPhone() },
        products: [{ _id: productId, quantity: 2 }],
        placedBy: null,
        ...extra,
      });
  }

  describe('before the shop sets any zone', () => {
    it('delivers all of Kenya at KES 0 in 3 days, and offers free collection', async () => {
      const before = Date.now();
      const [delivery, collection] = await options('Turkana', 'Loima');
      expect(delivery).toMatchObject({
        method: 'delivery',
        zoneName: 'All of Kenya',
        fee: 0,
        days: 3,
      });
      const eta = new Date(delivery!.estimatedDeliveryDate).getTime();
      expect(eta).toBeGreaterThanOrEqual(before + 3 * DAY_MS - 1000);
      expect(eta).toBeLessThanOrEqual(Date.now() + 3 * DAY_MS + 1000);
      expect(collection).toMatchObject({
        method: 'collection',
        zoneName: NURSERY_COLLECTION.name,
        fee: 0,
        address: NURSERY_COLLECTION.address,
        openingHours: NURSERY_COLLECTION.openingHours,
      });
    });

    it('places an order without a method as a delivery at KES 0, the spec behaviour', async () => {
      const res = await order({ county: 'Turkana', subCounty: 'Loima' }).expect(201);
      const o = res.body.order;
      expect(o.shippingFee).toBe(0);
      expect(o.totalAmount).toBe(900);
      expect(o.delivery).toEqual({ method: 'delivery', zoneName: 'All of Kenya', days: 3 });
      const days = (Date.parse(o.estimatedDeliveryDate) - Date.parse(o.orderDate)) / DAY_MS;
      expect(days).toBeCloseTo(3, 3);
    });

    it('refuses an unknown county or sub-county with a 400 naming it', async () => {
      const bad = await http()
        .get('/api/delivery/options')
        .query({ county: 'Atlantis' })
        .expect(400);
      expect(bad.body.message).toBe('Atlantis is not a county of Kenya');
      const badSub = await http()
        .get('/api/delivery/options')
        .query({ county: 'Nairobi', subCounty: 'Ruiru' })
        .expect(400);
      expect(badSub.body.message).toBe('Ruiru is not a sub-county of Nairobi');
      await http().get('/api/delivery/options').expect(400);
    });
  });

  describe('zone administration', () => {
    it('lets only admin write zones; staff may read them; guests and customers may not', async () => {
      const customer = await registerCustomer(m.t);
      const body = { name: 'Mombasa coast', fee: 900, days: 5, areas: [{ county: 'Mombasa' }] };
      await http().post('/api/delivery/zones').send(body).expect(401);
      await createZone(body, customer.accessToken).expect(403);
      await createZone(body, staff.accessToken).expect(403);
      await http().get('/api/delivery/zones').expect(401);
      await http().get('/api/delivery/zones').set(bearer(customer.accessToken)).expect(403);
      await http().get('/api/delivery/zones').set(bearer(staff.accessToken)).expect(200);

      const created = await createZone(body).expect(201);
      const id = created.body.zone._id as string;
      for (const token of [customer.accessToken, staff.accessToken]) {
        await http()
          .put(`/api/delivery/zones/${id}`)
          .set(bearer(token))
          .send({ ...body, fee: 1 })
          .expect(403);
        await http().delete(`/api/delivery/zones/${id}`).set(bearer(token)).expect(403);
      }
      await http().delete(`/api/delivery/zones/${id}`).set(bearer(admin.accessToken)).expect(200);
      await http().delete(`/api/delivery/zones/${id}`).set(bearer(admin.accessToken)).expect(404);
    });

    it('refuses bad zones with a clear 400 and stores nothing', async () => {
      const cases: [object, string][] = [
        [{ name: '', fee: 100, days: 2, areas: [{ county: 'Kisumu' }] }, 'Zone name is required'],
        [{ name: 'X', fee: 10.5, days: 2, areas: [{ county: 'Kisumu' }] }, 'Fee must be whole'],
        [{ name: 'X', fee: -1, days: 2, areas: [{ county: 'Kisumu' }] }, 'Fee must be between'],
        [{ name: 'X', fee: 50_001, days: 2, areas: [{ county: 'Kisumu' }] }, 'Fee must be between'],
        [{ name: 'X', fee: 1, days: 61, areas: [{ county: 'Kisumu' }] }, 'Days must be between'],
        [{ name: 'X', fee: 1, days: 2, areas: [] }, 'Choose at least one county'],
        [{ name: 'X', fee: 1, days: 2, areas: [{ county: 'Atlantis' }] }, 'not a county of Kenya'],
        [
          { name: 'X', fee: 1, days: 2, areas: [{ county: 'Kisumu', subCounty: 'Ruiru' }] },
          'Ruiru is not a sub-county of Kisumu',
        ],
        [
          { name: 'X', fee: 1, days: 2, areas: [{ county: 'Kisumu' }, { county: 'kisumu' }] },
          'Kisumu is listed twice',
        ],
        [
          {
            name: 'X',
            fee: 1,
            days: 2,
            areas: [{ county: 'Kisumu' }, { county: 'Kisumu', subCounty: 'Seme' }],
          },
          'already covered by the whole of Kisumu',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await createZone(body).expect(400);
        expect(JSON.stringify(res.body)).toContain(message);
      }
      const list = await http()
        .get('/api/delivery/zones')
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(list.body.zones).toEqual([]);
    });

    it('refuses a place already in another zone (409), and a second zone of the same name', async () => {
      const a = await createZone({
        name: 'Lake',
        fee: 700,
        days: 4,
        areas: [{ county: 'Kisumu' }, { county: 'Nakuru', subCounty: 'Naivasha' }],
      }).expect(201);
      const clash = await createZone({
        name: 'Lake towns',
        fee: 500,
        days: 3,
        areas: [{ county: 'Nakuru', subCounty: 'Naivasha' }],
      }).expect(409);
      expect(clash.body.message).toBe(
        'Nakuru / Naivasha is already in zone Lake; a place can be in one zone only',
      );
      const sameName = await createZone({
        name: 'lake',
        fee: 500,
        days: 3,
        areas: [{ county: 'Siaya' }],
      }).expect(409);
      expect(sameName.body.message).toBe('A delivery zone named Lake already exists');
      // A sub-county of a county another zone covers is allowed: the sub-county rule wins there.
      const sub = await createZone({
        name: 'Kisumu town',
        fee: 250,
        days: 1,
        areas: [{ county: 'Kisumu', subCounty: 'Kisumu Central' }],
      }).expect(201);
      // Replacing a zone with its own places is no clash; taking another's is.
      await http()
        .put(`/api/delivery/zones/${a.body.zone._id}`)
        .set(bearer(admin.accessToken))
        .send({ name: 'Lake', fee: 750, days: 4, areas: [{ county: 'Kisumu' }] })
        .expect(200);
      await http()
        .put(`/api/delivery/zones/${sub.body.zone._id}`)
        .set(bearer(admin.accessToken))
        .send({ name: 'Kisumu town', fee: 250, days: 1, areas: [{ county: 'Kisumu' }] })
        .expect(409);
      await http().delete(`/api/delivery/zones/${a.body.zone._id}`).set(bearer(admin.accessToken));
      await http()
        .delete(`/api/delivery/zones/${sub.body.zone._id}`)
        .set(bearer(admin.accessToken));
    });

    it('records every zone change in the audit trail', async () => {
      const created = await createZone({
        name: 'Audit trail zone',
        fee: 120,
        days: 2,
        areas: [{ county: 'Marsabit' }],
      }).expect(201);
      await http()
        .delete(`/api/delivery/zones/${created.body.zone._id}`)
        .set(bearer(admin.accessToken))
        .expect(200);
      const logs = await http().get('/api/audit-logs').set(bearer(admin.accessToken)).expect(200);
      const mine = (logs.body as { action: string; message: string }[]).filter((l) =>
        l.message.includes('Audit trail zone'),
      );
      expect(mine.map((l) => l.action).sort()).toEqual([
        'delivery-zone.create',
        'delivery-zone.delete',
      ]);
      expect(mine.find((l) => l.action === 'delivery-zone.create')!.message).toContain(
        'KES 120, 2 days, Marsabit',
      );
    });
  });

  describe('fees by zone', () => {
    let zoneIds: string[] = [];

    beforeAll(async () => {
      const zones = [
        { name: 'Nairobi', fee: 300, days: 2, areas: [{ county: 'Nairobi' }] },
        {
          name: 'Westlands express',
          fee: 150,
          days: 1,
          areas: [{ county: 'Nairobi', subCounty: 'Westlands' }],
        },
      ];
      zoneIds = [];
      for (const z of zones) zoneIds.push((await createZone(z).expect(201)).body.zone._id);
    });
    afterAll(async () => {
      for (const id of zoneIds)
        await http().delete(`/api/delivery/zones/${id}`).set(bearer(admin.accessToken));
    });

    it('charges the county rule for a sub-county without its own rule', async () => {
      expect(await deliveryOf('Nairobi', 'Kasarani')).toMatchObject({
        zoneName: 'Nairobi',
        fee: 300,
        days: 2,
      });
      expect(await deliveryOf('Nairobi')).toMatchObject({ zoneName: 'Nairobi', fee: 300 });
    });

    it('charges the sub-county rule over the county rule', async () => {
      expect(await deliveryOf('Nairobi', 'Westlands')).toMatchObject({
        zoneName: 'Westlands express',
        fee: 150,
        days: 1,
      });
    });

    it('charges a place no zone covers as the rest of Kenya (KES 0, 3 days)', async () => {
      expect(await deliveryOf('Kisumu', 'Seme')).toMatchObject({
        zoneName: 'Rest of Kenya',
        fee: 0,
        days: 3,
      });
    });

    it("stores the zone's fee, delivery and date on the order; total = subtotal + fee", async () => {
      const res = await order({ county: 'Nairobi', subCounty: 'Kasarani' }).expect(201);
      const o = res.body.order;
      expect(o.subtotal).toBe(900);
      expect(o.shippingFee).toBe(300);
      expect(o.totalAmount).toBe(1200);
      expect(o.delivery).toEqual({ method: 'delivery', zoneName: 'Nairobi', days: 2 });
      const days = (Date.parse(o.estimatedDeliveryDate) - Date.parse(o.orderDate)) / DAY_MS;
      expect(days).toBeCloseTo(2, 3);
      const chat = decodeURIComponent(o.whatsappUrl.split('?text=')[1]);
      expect(chat).toContain('Delivery (Nairobi): KES 300');
      expect(chat).toContain('Total: KES 1,200');
      const track = await http()
        .get('/api/orders/track/new-order')
        .query({ purchaseNumber: o.purchaseNumber })
        .expect(200);
      expect(track.body.estimatedDeliveryDate).toBe(o.estimatedDeliveryDate);

      const sub = await order({ county: 'Nairobi', subCounty: 'Westlands' }).expect(201);
      expect(sub.body.order.shippingFee).toBe(150);
      expect(sub.body.order.totalAmount).toBe(1050);
    });

    it('ignores a tampered shippingFee, totalAmount or delivery fee sent by the client', async () => {
      const res = await order(
        { county: 'Nairobi', subCounty: 'Kasarani' },
        {
          shippingFee: 0,
          totalAmount: 1,
          delivery: { method: 'delivery', zoneName: 'Free', days: 0, fee: 0 },
        },
      ).expect(201);
      expect(res.body.order.shippingFee).toBe(300);
      expect(res.body.order.totalAmount).toBe(1200);
      expect(res.body.order.delivery.zoneName).toBe('Nairobi');
    });

    it('charges nothing for collection at the nursery, and says where and when', async () => {
      const res = await order(
        { county: 'Nairobi', subCounty: 'Kasarani' },
        { deliveryMethod: 'collection' },
      ).expect(201);
      const o = res.body.order;
      expect(o.shippingFee).toBe(0);
      expect(o.totalAmount).toBe(900);
      expect(o.delivery).toEqual({
        method: 'collection',
        zoneName: NURSERY_COLLECTION.name,
        days: NURSERY_COLLECTION.days,
      });
      const chat = decodeURIComponent(o.whatsappUrl.split('?text=')[1]);
      expect(chat).toContain('Collect at the nursery: free');
      expect(chat).toContain(NURSERY_COLLECTION.address);

      const nested = await order(
        { county: 'Nairobi', subCounty: 'Kasarani' },
        { delivery: { method: 'collection' } },
      ).expect(201);
      expect(nested.body.order.shippingFee).toBe(0);
      expect(nested.body.order.delivery.method).toBe('collection');
    });

    it('refuses an unknown method or two methods that disagree (400), placing nothing', async () => {
      const nairobi = { county: 'Nairobi', subCounty: 'Kasarani' };
      const bad = await order(nairobi, { deliveryMethod: 'drone' }).expect(400);
      expect(JSON.stringify(bad.body)).toContain('Delivery method must be one of');
      const both = await order(nairobi, {
        deliveryMethod: 'collection',
        delivery: { method: 'delivery' },
      }).expect(400);
      expect(both.body.message).toContain('disagree');
    });

    it('e-mails the delivery fee and the collection address in the confirmation', async () => {
      const email = `collector.${Date.now()}@example.co.ke`;
      const res = await http()
        .post('/api/orders')
        .send({
          guestInfo: { ...DELIVERY, county: 'Nairobi', subCounty: 'Kasarani', email },
          products: [{ _id: productId, quantity: 1 }],
          deliveryMethod: 'collection',
        })
        .expect(201);
      let mail = '';
      for (let i = 0; i < 60 && !mail; i++) {
        const outbox = path.join(dataDir, 'outbox');
        const files = existsSync(outbox) ? readdirSync(outbox) : [];
        mail =
          files
            .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
            .find((text) => text.includes(`To: ${email}`)) ?? '';
        if (!mail) await new Promise((r) => setTimeout(r, 50));
      }
      const text = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(text).toContain(res.body.order.purchaseNumber);
      expect(text).toContain('Collect at the nursery: free');
      expect(text).toContain(NURSERY_COLLECTION.address);
      expect(text).toContain('Total: KES 450');
    });

    it('asks M-Pesa Express for the total including delivery', async () => {
      const phone = newPhone();
      const placed = await http()
        .post('/api/orders')
        .send({
          guestInfo: { ...DELIVERY, county: 'Nairobi', subCounty: 'Kasarani', phoneNumber: phone },
          products: [{ _id: productId, quantity: 2 }],
        })
        .expect(201);
      expect(placed.body.order.totalAmount).toBe(1200);
      m.sim.setScenario('success', `254${phone.slice(1)}`);
      const push = await http()
        .post('/api/payments/mpesa/stk-push')
        .send({ purchaseNumber: placed.body.order.purchaseNumber, phoneNumber: phone })
        .expect(200);
      const settled = await m.sim.settled(push.body.checkoutRequestId as string);
      expect(settled.request.Amount).toBe(1200);
    });

    it('separates delivery fees from product sales in the sales report', async () => {
      const placed = await order({ county: 'Nairobi', subCounty: 'Kasarani' }).expect(201);
      const o = placed.body.order;
      await http()
        .patch(`/api/orders/complete-payment/${o._id}`)
        .set(bearer(staff.accessToken))
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: o.totalAmount } })
        .expect(200);
      const day = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' });
      const report = await http()
        .get('/api/sales-summary/report')
        .query({ from: day, to: day })
        .set(bearer(admin.accessToken))
        .expect(200);
      const split = report.body.salesBreakdown;
      expect(split.deliveryFees).toBeGreaterThanOrEqual(300);
      expect(split.productSales + split.deliveryFees).toBe(report.body.totals.revenue);
      const today = report.body.series.find((d: { date: string }) => d.date === day);
      const todaySplit = split.series.find((d: { date: string }) => d.date === day);
      expect(todaySplit.productSales + todaySplit.deliveryFees).toBe(today.revenue);
    });
  });

  describe('a county as people type it', () => {
    const CYRILLIC_MOMBASA = 'Momb\u0430sa'; // the second "a" is Cyrillic
    let zoneId: string;

    beforeAll(async () => {
      const zone = await createZone({
        name: 'Coast',
        fee: 900,
        days: 4,
        areas: [{ county: 'mombasa county' }],
      }).expect(201);
      zoneId = zone.body.zone._id;
      expect(zone.body.zone.areas).toEqual([{ county: 'Mombasa' }]);
    });
    afterAll(async () => {
      await http().delete(`/api/delivery/zones/${zoneId}`).set(bearer(admin.accessToken));
    });

    it('charges the Mombasa zone however Mombasa is spelt, and stores the list spelling', async () => {
      for (const typed of ['Mombasa County', 'Mombasa.', ' MOMBASA ', 'mombasa county.']) {
        const res = await order({ county: typed, subCounty: 'nyali sub-county' }).expect(201);
        expect(res.body.order.shippingFee).toBe(900);
        expect(res.body.order.totalAmount).toBe(1800);
        expect(res.body.order.guestInfo).toMatchObject({ county: 'Mombasa', subCounty: 'Nyali' });
        expect(await deliveryOf(typed)).toMatchObject({ zoneName: 'Coast', fee: 900 });
      }
    });

    it('refuses a county or sub-county the location list does not know with a 400 naming the field', async () => {
      const lookAlike = await order({ county: CYRILLIC_MOMBASA, subCounty: '' }).expect(400);
      expect(lookAlike.body.message).toBe(`${CYRILLIC_MOMBASA} is not a county of Kenya`);
      expect(lookAlike.body.errors).toEqual([
        { field: 'guestInfo.county', messages: [`${CYRILLIC_MOMBASA} is not a county of Kenya`] },
      ]);
      const sub = await order({ county: 'Mombasa', subCounty: 'Ruiru' }).expect(400);
      expect(sub.body.errors).toEqual([
        { field: 'guestInfo.subCounty', messages: ['Ruiru is not a sub-county of Mombasa'] },
      ]);
      const options = await http()
        .get('/api/delivery/options')
        .query({ county: CYRILLIC_MOMBASA })
        .expect(400);
      expect(options.body.errors[0].field).toBe('county');
      const zone = await createZone({
        name: 'Look-alike',
        fee: 1,
        days: 1,
        areas: [{ county: CYRILLIC_MOMBASA }],
      }).expect(400);
      expect(zone.body.errors[0].field).toBe('areas.0.county');
    });

    it('sees one place however a zone names it: a second zone for "Mombasa County" clashes', async () => {
      const clash = await createZone({
        name: 'Coast again',
        fee: 10,
        days: 1,
        areas: [{ county: 'Mombasa County' }],
      }).expect(409);
      expect(clash.body.message).toBe(
        'Mombasa is already in zone Coast; a place can be in one zone only',
      );
    });

    describe('a clerk changing the address', () => {
      function update(id: string, place: object) {
        return http()
          .put(`/api/orders/update/${id}`)
          .set(bearer(staff.accessToken))
          .send({ guestInfo: { ...DELIVERY, subCounty: '', ward: '', ...place } });
      }

      it('re-quotes delivery: the fee, zone, date and total follow the new address, audited', async () => {
        const placed = (await order({ county: 'Kiambu', subCounty: 'Ruiru' }).expect(201)).body
          .order;
        expect(placed.shippingFee).toBe(0);
        const res = await update(placed._id, { county: 'Mombasa County', subCounty: '' }).expect(
          200,
        );
        const o = res.body.order;
        expect(o.guestInfo.county).toBe('Mombasa');
        expect(o.shippingFee).toBe(900);
        expect(o.totalAmount).toBe(o.subtotal + 900);
        expect(o.delivery).toEqual({ method: 'delivery', zoneName: 'Coast', days: 4 });
        const days = (Date.parse(o.estimatedDeliveryDate) - Date.parse(o.orderDate)) / DAY_MS;
        expect(days).toBeCloseTo(4, 3);
        const logs = await http().get('/api/audit-logs').set(bearer(admin.accessToken)).expect(200);
        const entry = (logs.body as { action: string; message: string }[]).find(
          (l) => l.action === 'order.update' && l.message.includes(placed.purchaseNumber),
        );
        expect(entry?.message).toContain(
          'delivery KES 0 (Rest of Kenya) became KES 900 (Coast), total KES 900 became KES 1,800',
        );
        // M-Pesa Express now asks for the new total.
        const track = await http()
          .get(`/api/orders/${placed._id}`)
          .set(bearer(staff.accessToken))
          .expect(200);
        expect(track.body.order.totalAmount).toBe(1800);
      });

      it('refuses an address the location list does not know (400 naming the field), changing nothing', async () => {
        const placed = (await order({ county: 'Kiambu', subCounty: '' }).expect(201)).body.order;
        const res = await update(placed._id, { county: CYRILLIC_MOMBASA }).expect(400);
        expect(res.body.errors[0].field).toBe('guestInfo.county');
        const now = await http()
          .get(`/api/orders/${placed._id}`)
          .set(bearer(staff.accessToken))
          .expect(200);
        expect(now.body.order).toMatchObject({ shippingFee: 0, guestInfo: { county: 'Kiambu' } });
      });

      it('refuses to change the fee of a paid order (409); a place at the same fee is fine', async () => {
        const placed = (await order({ county: 'Kiambu', subCounty: '' }).expect(201)).body.order;
        await http()
          .patch(`/api/orders/complete-payment/${placed._id}`)
          .set(bearer(staff.accessToken))
          .send({ paymentMethod: 'Cash', paymentDetails: { amount: placed.totalAmount } })
          .expect(200);
        const refused = await update(placed._id, { county: 'Mombasa' }).expect(409);
        expect(refused.body.message).toContain('is paid with delivery at KES 0');
        expect(refused.body.message).toContain('Mombasa costs KES 900');
        const same = await update(placed._id, { county: 'Turkana' }).expect(200);
        expect(same.body.order).toMatchObject({
          shippingFee: 0,
          totalAmount: placed.totalAmount,
          paymentStatus: 'Paid',
          guestInfo: { county: 'Turkana' },
        });
      });
    });
  });

  it('a signed-in customer ordering to their saved county pays its zone', async () => {
    const zone = await createZone({
      name: 'Mombasa',
      fee: 800,
      days: 4,
      areas: [{ county: 'Mombasa' }],
    }).expect(201);
    const customer = await registerCustomer(m.t);
    const res = await placeOrder(m.t, [{ _id: productId, quantity: 1 }], {
      token: customer.accessToken,
      guestInfo: { ...DELIVERY, county: 'Mombasa', subCounty: 'Nyali', phoneNumber: newPhone() },
    }).expect(201);
    expect(res.body.order.shippingFee).toBe(800);
    expect(res.body.order.totalAmount).toBe(1250);
    const mine = await http().get('/api/orders/user').set(bearer(customer.accessToken)).expect(200);
    expect(mine.body.orders[0].delivery).toEqual({
      method: 'delivery',
      zoneName: 'Mombasa',
      days: 4,
    });
    await http()
      .delete(`/api/delivery/zones/${zone.body.zone._id}`)
      .set(bearer(admin.accessToken))
      .expect(200);
  });
});
