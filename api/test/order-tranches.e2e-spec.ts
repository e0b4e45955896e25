/**
 * Tranches (issue 43) on the real database, with texts through the Africa's Talking simulator: the
 * county's order of issue 42 (30,000 seedlings: ready stock and two growing batches) delivered in
 * tranches to its planting sites, ready stock first, then each batch once it is ready; the stock
 * ledger and the batches agree after every step; a short delivery leaves the rest to deliver;
 * the site's contact is texted the day before and when the load leaves; the organisation's people
 * read the tranches and print the notes; nobody else sees them.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { checkMoneyLedger } from '../../tools/money/ledger-check';
import { Scheduler } from '../src/common/scheduler/scheduler';
import { TrancheSteps } from '../src/tranches/tranche-steps.service';
import { bearer, createStaff, registerCustomer, type Session } from './support/identity';
import { placeOrder, stockOf, DELIVERY } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { binary, pdfText } from './support/quotations';
import {
  countyOrder,
  countyPeople,
  expectAgreement,
  inDays,
  mobile,
  msisdn,
  site,
  today,
  TRANCHE_ROUTES,
  type CountyOrder,
  type LineStanding,
  type TrancheBody,
} from './support/tranches';
import { sleep } from './support/wait';

describe('orders delivered in tranches', () => {
  let s: SmsTestApp;
  let world: ShopWorld;
  let otherStaff: Session;

  beforeAll(async () => {
    s = await createSmsTestApp('tranches');
    world = await createShopWorld(s.t);
    otherStaff = await createStaff(s.t, world.admin.accessToken);
  });
  afterAll(() => s.close());

  const http = () => s.t.http();
  const as = (who: Session) => bearer(who.accessToken);
  const staff = () => as(world.staff);
  const db = () => s.t.app.get<Connection>(getConnectionToken()).db!;

  const plan = (o: CountyOrder, body: object, who: Session = world.staff) =>
    http().post(`/api/orders/${o.orderId}/tranches`).set(as(who)).send(body);
  const dispatch = (o: CountyOrder, n: number, who: Session = world.staff) =>
    http().post(`/api/orders/${o.orderId}/tranches/${n}/dispatch`).set(as(who)).send({});
  const deliver = (o: CountyOrder, n: number, body: object) =>
    http().post(`/api/orders/${o.orderId}/tranches/${n}/delivery`).set(staff()).send(body);
  const standing = async (o: CountyOrder, who: Session = world.staff) =>
    (await http().get(`/api/orders/${o.orderId}/tranches`).set(as(who)).expect(200)).body as {
      lines: LineStanding[];
      tranches: TrancheBody[];
    };
  const orderOf = async (o: CountyOrder) =>
    (await http().get(`/api/orders/${o.orderId}`).set(staff()).expect(200)).body.order as {
      orderStatus: string;
      inTranches: boolean;
      inTransitDate: string | null;
      deliveredDate: string | null;
    };
  const ready = (batchId: string) =>
    http().post(`/api/batches/${batchId}/ready`).set(staff()).send({}).expect(201);
  const batchLedger = async (batchId: string) =>
    (await db()
      .collection('stock_movements')
      .find({ productId: `batch:${batchId}` })
      .sort({ seq: 1 })
      .toArray()) as unknown as { reason: string; change: number; note: string }[];
  const signed = (lines?: object[]) => ({
    signedBy: 'Peter Mwangi',
    signedAt: new Date().toISOString(),
    ...(lines ? { lines } : {}),
  });

  it("delivers the county's 30,000 seedlings in tranches: ready stock first, then each batch once ready, a short part to deliver again; ledger and batches agree at every step", async () => {
    const o = await countyOrder(s.t, world);
    const { first, second } = o;
    const phone = mobile();
    const heldOn = (a: number, b: number) =>
      expectAgreement(s.t, world.staff, o.orderId, { [first._id]: a, [second._id]: b });
    await heldOn(12_000, 8_000);
    expect(await stockOf(s.t, o.acacia._id)).toBe(5_000);

    // T1: all 200 trays of ready stock, tomorrow. T2 and T3: each batch on its ready day.
    const t1 = await plan(o, {
      site: site(phone),
      date: inDays(1),
      lines: [{ ...o.lines.stock, quantity: 200 }],
    }).expect(201);
    expect(t1.body.tranche).toMatchObject({
      number: 1,
      label: 'T1',
      state: 'Planned',
      seedlings: 10_000,
      site: { county: 'Kiambu', subCounty: 'Gatundu North', contact: { phone: msisdn(phone) } },
    });
    // Dated before its batch is ready: refused with the day, nothing planned.
    const early = await plan(o, {
      site: site(mobile(), 'Thika planting site'),
      date: inDays(59),
      lines: [{ ...o.lines.first, quantity: 12_000 }],
    }).expect(400);
    expect(early.body.message).toContain(`ready on ${first.readyOn}`);
    await plan(o, {
      site: site(mobile(), 'Thika planting site'),
      date: first.readyOn,
      lines: [{ ...o.lines.first, quantity: 12_000 }],
    }).expect(201);
    await plan(o, {
      site: site(mobile(), 'Juja planting site'),
      date: second.readyOn,
      lines: [{ ...o.lines.second, quantity: 8_000 }],
    }).expect(201);
    // More than the order holds: every tray is in T1 already.
    const over = await plan(o, {
      site: site(),
      date: inDays(2),
      lines: [{ ...o.lines.stock, quantity: 1 }],
    }).expect(400);
    expect(over.body.message).toContain(
      'its other tranches take 200, so this tranche can take at most 0',
    );
    expect((await standing(o)).tranches.map((t) => t.label)).toEqual(['T1', 'T2', 'T3']);
    expect(await orderOf(o)).toMatchObject({ orderStatus: 'Pending', inTranches: true });
    await heldOn(12_000, 8_000);

    // The whole order is no longer sent out by hand: its stock would go twice.
    const whole = await http().patch(`/api/orders/inTransit/${o.orderId}`).set(staff()).send({});
    expect(whole.status).toBe(409);
    expect(whole.body.message).toContain('delivered in tranches');

    // T2 waits for its batch, with the day it is expected.
    const notReady = await dispatch(o, 2).expect(409);
    expect(notReady.body.message).toContain(`not ready yet (expected ${first.readyOn})`);

    // T1 leaves: nothing more leaves ready stock (the order's seedlings were sold at placement).
    const sent = await dispatch(o, 1).expect(200);
    expect(sent.body.tranche).toMatchObject({ state: 'Dispatched', seedlings: 10_000 });
    expect(sent.body.tranche.lines[0]).toMatchObject({ quantity: 200, dispatched: 200 });
    expect(await orderOf(o)).toMatchObject({ orderStatus: 'InTransit' });
    expect(await stockOf(s.t, o.acacia._id)).toBe(5_000);
    await heldOn(12_000, 8_000);
    const [text] = await s.messagesTo(msisdn(phone), 1);
    expect(text!.message).toContain(
      `load T1 of order ${o.purchaseNumber}, 10,000 seedlings, left our nursery`,
    );

    // Signed for: 190 trays arrived, 10 came back with the reason; they are to deliver again.
    const noReason = await deliver(o, 1, signed([{ ...o.lines.stock, delivered: 190 }]));
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('A line delivered short needs its reason');
    const short = await deliver(
      o,
      1,
      signed([
        { ...o.lines.stock, delivered: 190, shortReason: 'No shade at the site for 10 trays' },
      ]),
    ).expect(200);
    expect(short.body.tranche).toMatchObject({ state: 'Delivered', signedBy: 'Peter Mwangi' });
    expect(short.body.tranche.lines[0]).toMatchObject({
      dispatched: 200,
      delivered: 190,
      shortReason: 'No shade at the site for 10 trays',
    });
    let lines = (await standing(o)).lines;
    expect(lines[0]).toMatchObject({ quantity: 200, delivered: 190, toPlan: 10 });
    expect(await orderOf(o)).toMatchObject({ orderStatus: 'InTransit' });
    expect(await stockOf(s.t, o.acacia._id)).toBe(5_000);
    await heldOn(12_000, 8_000);

    // The 10 trays go again (T4), signed for in full.
    await plan(o, {
      site: site(phone),
      date: today(),
      lines: [{ ...o.lines.stock, quantity: 10 }],
    }).expect(201);
    await dispatch(o, 4).expect(200);
    await deliver(o, 4, signed()).expect(200);
    expect((await standing(o)).lines[0]).toMatchObject({ delivered: 200, toPlan: 0 });

    // The first batch is ready: what the order does not hold goes into ready stock; T2 leaves.
    await ready(first._id);
    expect(await stockOf(s.t, o.acacia._id)).toBe(13_000);
    await heldOn(12_000, 8_000);
    await dispatch(o, 2).expect(200);
    await heldOn(0, 8_000);
    expect((await batchLedger(first._id)).slice(-1)[0]).toMatchObject({
      reason: 'sale',
      change: -12_000,
    });
    // 100 seedlings came back: into the batch and the order's hold again, on the ledger.
    await deliver(
      o,
      2,
      signed([{ ...o.lines.first, delivered: 11_900, shortReason: 'Crushed crate, sent back' }]),
    ).expect(200);
    await heldOn(100, 8_000);
    expect((await batchLedger(first._id)).slice(-1)[0]).toMatchObject({
      reason: 'return',
      change: 100,
    });
    lines = (await standing(o)).lines;
    expect(lines[1]).toMatchObject({ quantity: 12_000, delivered: 11_900, toPlan: 100 });

    // The second batch: T3 cannot leave before it is ready, then goes whole.
    expect((await dispatch(o, 3)).status).toBe(409);
    await ready(second._id);
    await dispatch(o, 3).expect(200);
    await heldOn(100, 0);
    await deliver(o, 3, signed()).expect(200);
    expect(await orderOf(o)).toMatchObject({ orderStatus: 'InTransit' });

    // The last 100 of the first batch (T5): every unit delivered, the order is.
    await plan(o, {
      site: site(),
      date: today(),
      lines: [{ ...o.lines.first, quantity: 100 }],
    }).expect(201);
    await dispatch(o, 5).expect(200);
    await heldOn(0, 0);
    await deliver(o, 5, signed()).expect(200);
    await heldOn(0, 0);
    const done = await orderOf(o);
    expect(done).toMatchObject({ orderStatus: 'Delivered' });
    expect(done.deliveredDate).not.toBeNull();
    expect((await standing(o)).lines.map((l) => [l.delivered, l.toPlan])).toEqual([
      [200, 0],
      [12_000, 0],
      [8_000, 0],
    ]);
    // The trail tells the order's story, tranche by tranche.
    const detail = await http().get(`/api/orders/${o.orderId}/detail`).set(staff()).expect(200);
    const steps = (detail.body.timeline as { text: string }[]).map((e) => e.text).join('\n');
    expect(steps).toContain(`dispatched tranche T1 of order ${o.purchaseNumber}`);
    expect(steps).toContain(
      `recorded the signed delivery note of tranche T2 of order ${o.purchaseNumber}: 1 line short`,
    );
    const named = (detail.body.timeline as { step: string }[]).map((e) => e.step);
    expect(named.filter((n) => n === 'Tranche dispatched')).toHaveLength(5);
    expect(named.filter((n) => n === 'Tranche signed for')).toHaveLength(5);
    // No money moved with the loads: the money ledger agrees with the orders as before.
    expect((await checkMoneyLedger(db())).problems).toEqual([]);
    // Its buyer's own timeline says so in their words.
    const theirs = await http()
      .get(`/api/orders/${o.orderId}/detail`)
      .set(as(o.people.approver))
      .expect(200);
    expect(theirs.body.timeline).toContainEqual(
      expect.objectContaining({ text: 'A load of your order left for its site', by: null }),
    );
  });

  it('lets exactly one of two clerks dispatch a tranche at once: the batch moves once', async () => {
    const o = await countyOrder(s.t, world);
    await ready(o.first._id);
    await plan(o, {
      site: site(),
      date: today(),
      lines: [{ ...o.lines.first, quantity: 5_000 }],
    }).expect(201);
    const before = (await batchLedger(o.first._id)).length;
    const answers = await Promise.all([dispatch(o, 1), dispatch(o, 1, otherStaff)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.message).toMatch(/Tranche T1 of order SPD\w+ was dispatched/);
    // And a replay later is refused the same way.
    expect((await dispatch(o, 1)).status).toBe(409);
    const moved = (await batchLedger(o.first._id)).slice(before);
    expect(moved).toEqual([expect.objectContaining({ reason: 'sale', change: -5_000 })]);
    await expectAgreement(s.t, world.staff, o.orderId, { [o.first._id]: 7_000 });
  });

  it('refuses to plan past what a line holds, also when two clerks plan at once', async () => {
    const o = await countyOrder(s.t, world);
    const half = { site: site(), date: today(), lines: [{ ...o.lines.stock, quantity: 150 }] };
    const answers = await Promise.all([plan(o, half), plan(o, half, otherStaff)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    expect((await standing(o)).lines[0]).toMatchObject({ planned: 150, toPlan: 50 });
    // A cancelled tranche frees its units; a changed one is checked against the others.
    await http().post(`/api/orders/${o.orderId}/tranches/1/cancel`).set(staff()).expect(200);
    expect((await standing(o)).lines[0]).toMatchObject({ planned: 0, toPlan: 200 });
    await plan(o, { ...half, lines: [{ ...o.lines.stock, quantity: 120 }] }).expect(201);
    await plan(o, { ...half, lines: [{ ...o.lines.stock, quantity: 80 }] }).expect(201);
    const more = await http()
      .patch(`/api/orders/${o.orderId}/tranches/3`)
      .set(staff())
      .send({ lines: [{ ...o.lines.stock, quantity: 81 }] });
    expect(more.status).toBe(400);
    expect(more.body.message).toContain('at most 80');
    await http()
      .patch(`/api/orders/${o.orderId}/tranches/3`)
      .set(staff())
      .send({ lines: [{ ...o.lines.stock, quantity: 60 }], date: inDays(3) })
      .expect(200);
    expect((await standing(o)).lines[0]).toMatchObject({ planned: 180, toPlan: 20 });
  });

  it("shows the tranches to the order's organisation (a buyer reads, cannot plan or dispatch) and to nobody else", async () => {
    const o = await countyOrder(s.t, world);
    await plan(o, {
      site: site(),
      date: inDays(1),
      lines: [{ ...o.lines.stock, quantity: 20 }],
    }).expect(201);
    const { approver, buyer } = o.people;
    for (const who of [approver, buyer]) {
      const mine = await standing(o, who);
      expect(mine.tranches).toHaveLength(1);
      await http().get(`/api/orders/${o.orderId}/tranches/1`).set(as(who)).expect(200);
      const listed = await http().get('/api/tranches').set(as(who)).expect(200);
      expect(listed.body.tranches.map((t: TrancheBody) => t.orderId)).toEqual([o.orderId]);
    }
    expect(
      (
        await plan(
          o,
          { site: site(), date: today(), lines: [{ ...o.lines.stock, quantity: 1 }] },
          buyer,
        )
      ).status,
    ).toBe(403);
    expect((await dispatch(o, 1, buyer)).status).toBe(403);
    expect((await dispatch(o, 1, approver)).status).toBe(403);

    // Another organisation's person, and a shopper: 404 in the words of every order route.
    const elsewhere = await countyPeople(s.t, world);
    const shopper = await registerCustomer(s.t);
    for (const who of [elsewhere.approver, shopper]) {
      for (const path of [
        `/api/orders/${o.orderId}/tranches`,
        `/api/orders/${o.orderId}/tranches/1`,
        `/api/orders/${o.orderId}/tranches/1/delivery-note.pdf`,
      ]) {
        const res = await http().get(path).set(as(who));
        expect({ path, status: res.status, message: res.body.message }).toEqual({
          path,
          status: 404,
          message: 'No order with this id',
        });
      }
      const listed = await http().get('/api/tranches').set(as(who)).expect(200);
      expect(listed.body.tranches).toEqual([]);
    }

    // A shopper's own ordinary order has no tranches, and cannot have any.
    const own = await placeOrder(s.t, [{ _id: world.productId, quantity: 1 }], {
      token: shopper.accessToken,
      guestInfo: DELIVERY,
    }).expect(201);
    const ordinary = await http()
      .get(`/api/orders/${own.body.order._id}/tranches`)
      .set(as(shopper))
      .expect(200);
    expect(ordinary.body).toMatchObject({ lines: [], tranches: [] });
    const refused = await http()
      .post(`/api/orders/${own.body.order._id}/tranches`)
      .set(staff())
      .send({
        site: site(),
        date: today(),
        lines: [{ productId: world.productId, unitId: world.productId, quantity: 1 }],
      });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('was not made from a quotation');
  });

  it("prints a tranche's delivery note for the organisation's people and the shop", async () => {
    const o = await countyOrder(s.t, world);
    const phone = mobile();
    await plan(o, {
      site: site(phone, 'Kamwangi school grounds'),
      date: inDays(1),
      lines: [{ ...o.lines.stock, quantity: 40 }],
    }).expect(201);
    for (const who of [o.people.approver, o.people.buyer, world.staff, world.admin]) {
      const res = await http()
        .get(`/api/orders/${o.orderId}/tranches/1/delivery-note.pdf`)
        .set(as(who))
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(res.body as Buffer);
      for (const words of [
        'Kamwangi school grounds',
        'Peter Mwangi',
        msisdn(phone),
        `LPO number: ${o.lpoNumber}`,
        o.purchaseNumber,
        'Received by (name)',
        'Signature',
        'Seedlings in all: 2,000',
      ])
        expect(text).toContain(words);
    }
    await http().post(`/api/orders/${o.orderId}/tranches/1/cancel`).set(staff()).expect(200);
    const cancelled = await http()
      .get(`/api/orders/${o.orderId}/tranches/1/delivery-note.pdf`)
      .set(staff());
    expect(cancelled.status).toBe(409);
  });

  it("texts the site's contact the day before, once (a new day is texted again), then when the load leaves", async () => {
    // On account: the scheduler asked to run what is due days ahead does not expire it unpaid.
    const people = await countyPeople(s.t, world, { onAccount: true });
    const o = await countyOrder(s.t, world, people, { onAccount: true });
    const phone = mobile();
    const day = inDays(3);
    await plan(o, {
      site: site(phone),
      date: day,
      lines: [{ ...o.lines.stock, quantity: 10 }],
    }).expect(201);
    const scheduler = s.t.app.get(Scheduler);
    // 06:00 in Nairobi on the eve: too early. 09:00: texted, once, whoever looks again.
    const eve = (hourUtc: number, d = day) =>
      new Date(`${inDaysFrom(d, -1)}T${String(hourUtc).padStart(2, '0')}:00:00Z`);
    await scheduler.runDue(eve(3));
    await sleep(300);
    expect(s.sim.outbox.filter((m) => m.to === msisdn(phone))).toEqual([]);
    await scheduler.runDue(eve(6));
    const [tomorrow] = await s.messagesTo(msisdn(phone), 1);
    expect(tomorrow!.message).toContain(`tomorrow (`);
    expect(tomorrow!.message).toContain(`load T1 of order ${o.purchaseNumber}, 500 seedlings`);
    await scheduler.runDue(new Date(eve(6).getTime() + 11 * 60_000));
    await sleep(300);
    expect(s.sim.outbox.filter((m) => m.to === msisdn(phone))).toHaveLength(1);
    // Moved a day later: texted again on the new eve.
    const later = inDays(4);
    await http()
      .patch(`/api/orders/${o.orderId}/tranches/1`)
      .set(staff())
      .send({ date: later })
      .expect(200);
    await scheduler.runDue(new Date(`${inDaysFrom(later, -1)}T07:00:00Z`));
    await s.messagesTo(msisdn(phone), 2);
    await dispatch(o, 1).expect(200);
    const all = await s.messagesTo(msisdn(phone), 3);
    expect(all[2]!.message).toContain('left our nursery');
    // The buyer is told their order is on its way, as for any order (the order's own text).
    const rows = await db().collection('sms_outbox').find({ orderId: o.orderId }).toArray();
    expect(rows.map((r) => r.event).sort()).toEqual([
      'placed',
      'sent',
      'tranche-sent',
      'tranche-tomorrow',
      'tranche-tomorrow',
    ]);
  });

  it('calls off planned tranches with their order, and refuses a tranche of a cancelled order', async () => {
    const o = await countyOrder(s.t, world);
    await plan(o, {
      site: site(),
      date: today(),
      lines: [{ ...o.lines.stock, quantity: 10 }],
    }).expect(201);
    await http().patch(`/api/orders/cancel/${o.orderId}`).set(staff()).send({}).expect(200);
    expect((await standing(o)).tranches[0]).toMatchObject({ state: 'Cancelled' });
    const again = await plan(o, {
      site: site(),
      date: today(),
      lines: [{ ...o.lines.stock, quantity: 10 }],
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('is cancelled');
    // Stock and both batch holds came back once; the ledger agrees.
    expect(await stockOf(s.t, o.acacia._id)).toBe(15_000);
    await expectAgreement(s.t, world.staff, o.orderId, { [o.first._id]: 0, [o.second._id]: 0 });
  });

  it('finishes a dispatch a crash cut off after its claim: the order goes in transit, the batch moves once', async () => {
    const o = await countyOrder(s.t, world);
    await ready(o.first._id);
    await plan(o, {
      site: site(),
      date: today(),
      lines: [{ ...o.lines.first, quantity: 2_000 }],
    }).expect(201);
    // The claim as a process that died right after it leaves it: dispatched, its work left.
    const id = new Types.ObjectId(o.orderId);
    const doc = await db().collection('order_tranches').findOne({ _id: id });
    const at = new Date(Date.now() - 10 * 60_000);
    await db()
      .collection('order_tranches')
      .updateOne(
        { _id: id },
        {
          $set: {
            'tranches.0.state': 'Dispatched',
            'tranches.0.dispatchedAt': at,
            'tranches.0.lines.0.dispatched': 2_000,
            work: [
              {
                what: 'dispatched',
                number: 1,
                at,
                by: {
                  id: world.staff.user._id,
                  fullName: world.staff.user.fullName,
                  role: 'staff',
                },
              },
            ],
          },
          $inc: { rev: 1 },
        },
      );
    expect(doc).not.toBeNull();
    const steps = s.t.app.get(TrancheSteps);
    await Promise.all([steps.finishLeft(), steps.finishLeft()]);
    expect(await orderOf(o)).toMatchObject({ orderStatus: 'InTransit' });
    await expectAgreement(s.t, world.staff, o.orderId, { [o.first._id]: 10_000 });
    expect((await db().collection('order_tranches').findOne({ _id: id }))!.work).toEqual([]);
    // Finished once: one audit entry, one text to the site, whoever swept beside whom.
    const entries = await db()
      .collection('audit_logs')
      .find({ 'target.id': o.orderId, action: { $in: ['tranche.dispatch', 'order.inTransit'] } })
      .toArray();
    expect(entries.map((e) => e.action).sort()).toEqual(['order.inTransit', 'tranche.dispatch']);
  });

  it('answers every tranche route by role: 401 signed out, 403 for roles it is not theirs', async () => {
    const o = await countyOrder(s.t, world);
    const customer = o.people.approver;
    const routes: [string, string, readonly ('customer' | 'staff' | 'admin')[]][] = [
      ['get', `/api/orders/${o.orderId}/tranches`, ['customer', 'staff', 'admin']],
      ['post', `/api/orders/${o.orderId}/tranches`, ['staff', 'admin']],
      ['get', `/api/orders/${o.orderId}/tranches/1`, ['customer', 'staff', 'admin']],
      ['patch', `/api/orders/${o.orderId}/tranches/1`, ['staff', 'admin']],
      ['post', `/api/orders/${o.orderId}/tranches/1/cancel`, ['staff', 'admin']],
      ['post', `/api/orders/${o.orderId}/tranches/1/dispatch`, ['staff']],
      ['post', `/api/orders/${o.orderId}/tranches/1/delivery`, ['staff']],
      [
        'get',
        `/api/orders/${o.orderId}/tranches/1/delivery-note.pdf`,
        ['customer', 'staff', 'admin'],
      ],
      ['get', '/api/tranches', ['customer', 'staff', 'admin']],
      ['get', '/api/tranches/queue', ['staff', 'admin']],
    ];
    expect(routes).toHaveLength(TRANCHE_ROUTES.length);
    const sessions = { customer, staff: world.staff, admin: world.admin };
    for (const [method, path, allowed] of routes) {
      const anonymous = await (
        http() as never as Record<
          string,
          (p: string) => { send(b: object): Promise<{ status: number }> }
        >
      )[method]!(path).send({});
      expect({ path, method, status: anonymous.status }).toEqual({ path, method, status: 401 });
      for (const role of ['customer', 'staff', 'admin'] as const) {
        if (allowed.includes(role)) continue;
        const res = await (
          http() as never as Record<
            string,
            (p: string) => { set(h: object): { send(b: object): Promise<{ status: number }> } }
          >
        )[method]!(path)
          .set(as(sessions[role]))
          .send({});
        expect({ path, method, role, status: res.status }).toEqual({
          path,
          method,
          role,
          status: 403,
        });
      }
    }
    // The queue counts the desk's buckets.
    await plan(o, {
      site: site(),
      date: today(),
      lines: [{ ...o.lines.stock, quantity: 1 }],
    }).expect(201);
    await plan(o, {
      site: site(),
      date: inDays(5),
      lines: [{ ...o.lines.stock, quantity: 1 }],
    }).expect(201);
    const queue = await http().get('/api/tranches/queue').set(staff()).expect(200);
    expect(queue.body.counts.toDispatch).toBeGreaterThanOrEqual(1);
    expect(queue.body.counts.upcoming).toBeGreaterThanOrEqual(1);
    const due = await http()
      .get(`/api/tranches?queue=toDispatch&to=${today()}`)
      .set(staff())
      .expect(200);
    expect(
      due.body.tranches.some((t: TrancheBody) => t.orderId === o.orderId && t.date === today()),
    ).toBe(true);
    expect(
      due.body.tranches.every((t: TrancheBody) => t.state === 'Planned' && t.date <= today()),
    ).toBe(true);
  });
});

/** A day `n` days from `day` (YYYY-MM-DD). */
function inDaysFrom(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
