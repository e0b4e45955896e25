/**
 * Tranches (issue 43) as an outside tester attacks them: odd quantities and spellings, other
 * organisations' ids, replays, two clerks at once, the whole order's steps beside its tranches.
 * Every refusal is a 4xx that says why and changes nothing (the tranches' document, the stock, the
 * batches are as they were).
 */
import { getConnectionToken } from '@nestjs/mongoose';
import { Types, type Connection } from 'mongoose';
import { bearer, createStaff, type Session } from './support/identity';
import { stockOf } from './support/shop';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import {
  countyOrder,
  expectAgreement,
  inDays,
  site,
  today,
  type CountyOrder,
} from './support/tranches';
import { createTestApp, type TestApp } from './support/test-app';
import { UNTHROTTLED } from './support/identity';

describe('tranches under attack', () => {
  let t: TestApp;
  let world: ShopWorld;
  let otherStaff: Session;

  beforeAll(async () => {
    t = await createTestApp({ name: 'tranches_attack', env: UNTHROTTLED });
    world = await createShopWorld(t);
    otherStaff = await createStaff(t, world.admin.accessToken);
  });
  afterAll(() => t.close());

  const http = () => t.http();
  const staff = () => bearer(world.staff.accessToken);
  const db = () => t.app.get<Connection>(getConnectionToken()).db!;
  const docOf = (o: CountyOrder) =>
    db()
      .collection('order_tranches')
      .findOne({ _id: new Types.ObjectId(o.orderId) });
  const plan = (o: CountyOrder, body: object) =>
    http().post(`/api/orders/${o.orderId}/tranches`).set(staff()).send(body);
  const path = (o: CountyOrder, rest = '') => `/api/orders/${o.orderId}/tranches${rest}`;
  const ok = (o: CountyOrder, quantity = 10) => ({
    site: site(),
    date: today(),
    lines: [{ ...o.lines.stock, quantity }],
  });

  /** `act` is refused with `status` (and its words), and the order's tranches did not change. */
  async function refusedUnchanged(
    o: CountyOrder,
    act: () => Promise<{ status: number; body: { message?: string } }>,
    status: number,
    words?: string | RegExp,
  ) {
    const before = await docOf(o);
    const stock = await stockOf(t, o.acacia._id);
    const res = await act();
    expect({ status: res.status, message: res.body.message }).toEqual({
      status,
      message: words ? expect.stringMatching(words) : expect.any(String),
    });
    expect(await docOf(o)).toEqual(before);
    expect(await stockOf(t, o.acacia._id)).toBe(stock);
  }

  it('refuses quantities that are not whole units from 1 to 500,000, and bodies that are not its shape', async () => {
    const o = await countyOrder(t, world);
    await plan(o, ok(o)).expect(201);
    for (const quantity of [0, -1, 1e9, '5', 1.5, null, { $gt: 0 }, [], 'Infinity', Number.NaN])
      await refusedUnchanged(
        o,
        () => plan(o, { ...ok(o), lines: [{ ...o.lines.stock, quantity }] }),
        400,
        /quantity/,
      );
    for (const body of [
      { ...ok(o), lines: [] },
      { ...ok(o), lines: 'all of it' },
      { ...ok(o), extra: true },
      { ...ok(o), date: { $gt: '' } },
      { ...ok(o), date: '2026-02-30' },
      { ...ok(o), date: inDays(-1) },
      { ...ok(o), date: inDays(400) },
      { ...ok(o), site: { ...site(), county: 'Atlantis' } },
      { ...ok(o), site: { ...site(), subCounty: 'Mvita' } },
      { ...ok(o), site: { ...site(), contact: { name: 'Peter', phone: '020 2345678' } } },
      { ...ok(o), site: { ...site(), contact: { name: 'Peter', phone: '+1 555 123 4567' } } },
      { ...ok(o), site: { ...site(), contact: { name: '   ', phone: '0712345678' } } },
      { ...ok(o), site: { ...site(), name: '' } },
      { ...ok(o), lines: [{ ...o.lines.stock, quantity: 1, $where: 'sleep(1000)' }] },
      {
        ...ok(o),
        lines: [
          { ...o.lines.stock, quantity: 1 },
          { ...o.lines.stock, quantity: 1 },
        ],
      },
      { ...ok(o), lines: [{ ...o.lines.stock, productId: world.productId, quantity: 1 }] },
      { ...ok(o), lines: [{ ...o.lines.stock, batchId: o.first._id, quantity: 1 }] },
    ])
      await refusedUnchanged(o, () => plan(o, body), 400);
    // A past date and a Kenyan landline say why.
    const past = await plan(o, { ...ok(o), date: inDays(-1) });
    expect(past.body.message).toBe("A tranche's date cannot be before today");
    const landline = await plan(o, {
      ...ok(o),
      site: { ...site(), contact: { name: 'Peter', phone: '020 2345678' } },
    });
    expect(JSON.stringify(landline.body)).toContain('must be a Kenyan mobile number');
  });

  it('reads odd spellings of ids as a person means them, or refuses them in words', async () => {
    const o = await countyOrder(t, world);
    await plan(o, ok(o)).expect(201);
    // An order's id in capitals is the same order; a line's ids in capitals the same line.
    await http().get(`/api/orders/${o.orderId.toUpperCase()}/tranches/1`).set(staff()).expect(200);
    const upper = {
      productId: o.lines.first.productId.toUpperCase(),
      unitId: o.lines.first.unitId.toUpperCase(),
      batchId: o.first._id.toUpperCase(),
    };
    await plan(o, { ...ok(o), date: o.first.readyOn, lines: [{ ...upper, quantity: 5 }] }).expect(
      201,
    );
    for (const number of ['T1', 't1', '01', '1.0', '0', '-1', '1e0', '%201', '+1', '0x1'])
      await refusedUnchanged(
        o,
        () => http().get(`/api/orders/${o.orderId}/tranches/${number}`).set(staff()),
        400,
        /is not a tranche: a tranche is named by its number/,
      );
    const none = await http().get(path(o, '/999')).set(staff()).expect(404);
    expect(none.body.message).toBe(`Order ${o.purchaseNumber} has no tranche T999`);
    await http().get('/api/orders/not-an-id/tranches').set(staff()).expect(400);
    const unknown = await http()
      .get(`/api/orders/${new Types.ObjectId().toHexString()}/tranches`)
      .set(staff())
      .expect(404);
    expect(unknown.body.message).toBe('No order with this id');
    for (const action of ['dispatch', 'cancel', 'delivery'])
      expect(
        (
          await http()
            .post(`/api/orders/${new Types.ObjectId().toHexString()}/tranches/1/${action}`)
            .set(staff())
            .send(
              action === 'delivery' ? { signedBy: 'X', signedAt: new Date().toISOString() } : {},
            )
        ).status,
      ).toBe(404);
  });

  it("keeps another organisation's people out of every route, reading or writing", async () => {
    const o = await countyOrder(t, world);
    await plan(o, ok(o)).expect(201);
    const other = await countyOrder(t, world);
    const intruder = other.people.approver;
    for (const [method, rest] of [
      ['get', ''],
      ['get', '/1'],
      ['get', '/1/delivery-note.pdf'],
    ] as const) {
      const res = await http()[method](path(o, rest)).set(bearer(intruder.accessToken));
      expect({ rest, status: res.status, message: res.body.message }).toEqual({
        rest,
        status: 404,
        message: 'No order with this id',
      });
    }
    // Writing is the shop's: a customer is refused by role, whoever's order it is.
    for (const [method, rest, body] of [
      ['post', '', ok(o)],
      ['patch', '/1', { date: inDays(2) }],
      ['post', '/1/cancel', {}],
      ['post', '/1/dispatch', {}],
      ['post', '/1/delivery', { signedBy: 'X', signedAt: new Date().toISOString() }],
    ] as const)
      await refusedUnchanged(
        o,
        () => http()[method](path(o, rest)).set(bearer(intruder.accessToken)).send(body),
        403,
      );
  });

  it('refuses replays and steps out of order, in the rules table words', async () => {
    const o = await countyOrder(t, world);
    await plan(o, ok(o)).expect(201);
    await plan(o, ok(o, 20)).expect(201);
    const signed = () => ({ signedBy: 'Peter Mwangi', signedAt: new Date().toISOString() });
    await refusedUnchanged(
      o,
      () => http().post(path(o, '/1/delivery')).set(staff()).send(signed()),
      409,
      /is only planned: only a dispatched tranche can have its signed delivery note recorded/,
    );
    await http().post(path(o, '/2/cancel')).set(staff()).expect(200);
    await refusedUnchanged(
      o,
      () => http().post(path(o, '/2/cancel')).set(staff()),
      409,
      /Tranche T2 of order SPD\w+ was cancelled on \d{4}-\d\d-\d\d: only a planned tranche can be cancelled/,
    );
    await refusedUnchanged(
      o,
      () => http().post(path(o, '/2/dispatch')).set(staff()),
      409,
      /was cancelled/,
    );
    await http().post(path(o, '/1/dispatch')).set(staff()).expect(200);
    await refusedUnchanged(
      o,
      () =>
        http()
          .patch(path(o, '/1'))
          .set(staff())
          .send({ date: inDays(3) }),
      409,
      /was dispatched on .*only a planned tranche can be changed/,
    );
    await refusedUnchanged(
      o,
      () => http().post(path(o, '/1/cancel')).set(staff()),
      409,
      /a load that left is recorded as delivered/,
    );
    await http().post(path(o, '/1/delivery')).set(staff()).send(signed()).expect(200);
    await refusedUnchanged(
      o,
      () => http().post(path(o, '/1/delivery')).set(staff()).send(signed()),
      409,
      /was delivered/,
    );
    // A change with nothing in it says so.
    await plan(o, ok(o, 5)).expect(201);
    const nothing = await http().patch(path(o, '/3')).set(staff()).send({}).expect(400);
    expect(nothing.body.message).toBe('Send the site, the date or the lines to change');
    // Fields sent as null are not sent, as in every update (the fuzzer's `lines: null` was a 400
    // on the lines): nulls alone change nothing and say so; beside a field, only that one changes.
    const nulls = await http()
      .patch(path(o, '/3'))
      .set(staff())
      .send({ site: null, date: null, lines: null })
      .expect(400);
    expect(nulls.body.message).toBe('Send the site, the date or the lines to change');
    const before = (await http().get(path(o, '')).set(staff()).expect(200)).body.tranches.find(
      (x: { number: number }) => x.number === 3,
    );
    const moved = await http()
      .patch(path(o, '/3'))
      .set(staff())
      .send({ date: inDays(6), lines: null, site: null })
      .expect(200);
    expect(moved.body.tranche).toEqual(
      expect.objectContaining({ date: inDays(6), lines: before.lines, site: before.site }),
    );
  });

  it('refuses a signed note that is not the load: signed in the future or before it left, more than left, short without a reason, lines missing or not in it', async () => {
    const o = await countyOrder(t, world);
    await t.http().post(`/api/batches/${o.first._id}/ready`).set(staff()).send({}).expect(201);
    await plan(o, {
      ...ok(o),
      lines: [
        { ...o.lines.stock, quantity: 10 },
        { ...o.lines.first, quantity: 300 },
      ],
    }).expect(201);
    const sent = await http().post(path(o, '/1/dispatch')).set(staff()).expect(200);
    const left = new Date(sent.body.tranche.dispatchedAt as string);
    const note =
      (lines: object[], signedAt = new Date().toISOString()) =>
      () =>
        http().post(path(o, '/1/delivery')).set(staff()).send({
          signedBy: 'Peter Mwangi',
          signedAt,
          lines,
        });
    const both = (stock: object, first: object) => [
      { ...o.lines.stock, ...stock },
      { ...o.lines.first, ...first },
    ];
    const full = both({ delivered: 10 }, { delivered: 300 });
    const cases: [() => Promise<{ status: number; body: { message?: string } }>, RegExp][] = [
      [
        note(full, new Date(Date.now() + 60 * 60_000).toISOString()),
        /cannot be signed in the future/,
      ],
      [note(full, new Date(left.getTime() - 60_000).toISOString()), /before the load left/],
      [note(full, 'yesterday'), /signedAt must be a date and time/],
      [note(both({ delivered: 11 }, { delivered: 300 })), /at most the 10 units dispatched/],
      [note(both({ delivered: 9 }, { delivered: 300 })), /needs its reason/],
      [note(both({ delivered: 9, shortReason: '   ' }, { delivered: 300 })), /needs its reason/],
      [note(both({ delivered: -1 }, { delivered: 300 })), /delivered must be a whole number/],
      [note(both({ delivered: '10' }, { delivered: 300 })), /delivered must be a whole number/],
      [note(both({ delivered: 1e9 }, { delivered: 300 })), /delivered must be a whole number/],
      [note([{ ...o.lines.stock, delivered: 10 }]), /Say what arrived of every line of the load/],
      [note([...full, { ...o.lines.second, delivered: 1 }]), /not in tranche T1/],
      [note([...full, { ...o.lines.stock, delivered: 10 }]), /same line of the order twice/],
    ];
    for (const [act, words] of cases) await refusedUnchanged(o, act, 400, words);
    await expectAgreement(t, world.staff, o.orderId, { [o.first._id]: 11_700 });

    // Two clerks record it at once: one note, the short part back in the batch once.
    const short = both({ delivered: 10 }, { delivered: 250, shortReason: 'Wilted in the heat' });
    const answers = await Promise.all([
      note(short)(),
      http().post(path(o, '/1/delivery')).set(bearer(otherStaff.accessToken)).send({
        signedBy: 'Peter Mwangi',
        signedAt: new Date().toISOString(),
        lines: short,
      }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    await expectAgreement(t, world.staff, o.orderId, { [o.first._id]: 11_750 });
  });

  it('sends two loads at once: both go, the order goes in transit once', async () => {
    const o = await countyOrder(t, world);
    await plan(o, ok(o, 10)).expect(201);
    await plan(o, ok(o, 20)).expect(201);
    const answers = await Promise.all([
      http().post(path(o, '/1/dispatch')).set(staff()),
      http().post(path(o, '/2/dispatch')).set(bearer(otherStaff.accessToken)),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const detail = await http().get(`/api/orders/${o.orderId}/detail`).set(staff()).expect(200);
    const steps = detail.body.timeline as { step: string; text: string }[];
    expect(steps.filter((e) => e.step === 'In transit')).toHaveLength(1);
    expect(detail.body.order.orderStatus).toBe('InTransit');
  });

  it("refuses the whole order's steps while it goes in tranches, one by one and in bulk", async () => {
    const o = await countyOrder(t, world);
    await plan(o, ok(o)).expect(201);
    // The order's actions say so before anyone tries.
    const detail = await http().get(`/api/orders/${o.orderId}/detail`).set(staff()).expect(200);
    expect(detail.body.actions).toContainEqual({
      action: 'inTransit',
      allowed: false,
      reason: expect.stringContaining('dispatch each tranche from the dispatch desk'),
      code: 'ILLEGAL_TRANSITION',
    });
    const bulk = await http()
      .post('/api/orders/bulk')
      .set(staff())
      .send({ action: 'inTransit', orderIds: [o.orderId] })
      .expect(200);
    expect(bulk.body.refused[0].message).toContain('is delivered in tranches');
    await http().post(path(o, '/1/dispatch')).set(staff()).expect(200);
    const confirm = await http()
      .patch('/api/orders/confirm-delivery')
      .set(staff())
      .send({ orderId: o.orderId });
    expect(confirm.status).toBe(409);
    expect(confirm.body.message).toContain("record each tranche's signed delivery note");
    await http()
      .patch(`/api/orders/complete-payment/${o.orderId}`)
      .set(staff())
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: 742_500 } })
      .expect(200);
    const complete = await http().patch(`/api/orders/complete-order/${o.orderId}`).set(staff());
    expect(complete.status).toBe(409);
    expect(complete.body.message).toContain('some are not delivered yet');
    // The order sent out whole takes no tranche.
    const whole = await countyOrder(t, world);
    await t.http().post(`/api/batches/${whole.first._id}/ready`).set(staff()).send({});
    await t.http().post(`/api/batches/${whole.second._id}/ready`).set(staff()).send({});
    await http().patch(`/api/orders/inTransit/${whole.orderId}`).set(staff()).send({}).expect(200);
    const late = await plan(whole, ok(whole));
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('was sent out whole');
  });

  it('gives every seedling back once when an order is cancelled after its batches are ready: its ready stock and both batches of the same product', async () => {
    const o = await countyOrder(t, world);
    await t.http().post(`/api/batches/${o.first._id}/ready`).set(staff()).send({}).expect(201);
    await t.http().post(`/api/batches/${o.second._id}/ready`).set(staff()).send({}).expect(201);
    // 5,000 left of ready stock, and what the batches did not hold for the order: 8,000 and 2,000.
    expect(await stockOf(t, o.acacia._id)).toBe(15_000);
    await http().patch(`/api/orders/cancel/${o.orderId}`).set(staff()).send({}).expect(200);
    expect(await stockOf(t, o.acacia._id)).toBe(15_000 + 10_000 + 12_000 + 8_000);
    await expectAgreement(t, world.staff, o.orderId, { [o.first._id]: 0, [o.second._id]: 0 });
  });

  it("lets a tranche's first load and the order's cancellation race: one wins, and stock and batches agree either way", async () => {
    for (let round = 0; round < 3; round++) {
      const o = await countyOrder(t, world);
      await t.http().post(`/api/batches/${o.first._id}/ready`).set(staff()).send({}).expect(201);
      await plan(o, {
        ...ok(o),
        lines: [
          { ...o.lines.stock, quantity: 10 },
          { ...o.lines.first, quantity: 1_000 },
        ],
      }).expect(201);
      const [sent, cancelled] = await Promise.all([
        http().post(path(o, '/1/dispatch')).set(staff()),
        http()
          .patch(`/api/orders/cancel/${o.orderId}`)
          .set(bearer(otherStaff.accessToken))
          .send({}),
      ]);
      expect([sent.status, cancelled.status].sort()).toEqual([200, 409]);
      const tranche = (await http().get(path(o, '/1')).set(staff()).expect(200)).body.tranche;
      const order = (await http().get(`/api/orders/${o.orderId}`).set(staff()).expect(200)).body
        .order;
      if (sent.status === 200) {
        expect([order.orderStatus, tranche.state]).toEqual(['InTransit', 'Dispatched']);
        await expectAgreement(t, world.staff, o.orderId, {
          [o.first._id]: 11_000,
          [o.second._id]: 8_000,
        });
      } else {
        expect([order.orderStatus, tranche.state]).toEqual(['Cancelled', 'Cancelled']);
        expect(await stockOf(t, o.acacia._id)).toBe(15_000 + 8_000 + 12_000);
        await expectAgreement(t, world.staff, o.orderId, { [o.first._id]: 0, [o.second._id]: 0 });
      }
    }
  });

  it('lets the first tranche and the whole order sent out race: one wins, the stock goes once', async () => {
    for (let round = 0; round < 3; round++) {
      const o = await countyOrder(t, world);
      await t.http().post(`/api/batches/${o.first._id}/ready`).set(staff()).send({}).expect(201);
      await t.http().post(`/api/batches/${o.second._id}/ready`).set(staff()).send({}).expect(201);
      const [planned, whole] = await Promise.all([
        plan(o, ok(o)),
        http()
          .patch(`/api/orders/inTransit/${o.orderId}`)
          .set(bearer(otherStaff.accessToken))
          .send({}),
      ]);
      // One of them, the other refused with a 409.
      expect([
        [planned.status, whole.status],
        [planned.status === 201, whole.status === 200].filter(Boolean).length,
      ]).toEqual([planned.status === 201 ? [201, 409] : [409, 200], 1]);
      const order = (await http().get(`/api/orders/${o.orderId}`).set(staff()).expect(200)).body
        .order;
      if (whole.status === 200) {
        expect(order).toMatchObject({ orderStatus: 'InTransit', inTranches: false });
        expect((await http().get(path(o)).set(staff()).expect(200)).body.tranches).toEqual([]);
        await expectAgreement(t, world.staff, o.orderId, { [o.first._id]: 0, [o.second._id]: 0 });
      } else {
        expect(order).toMatchObject({ orderStatus: 'Pending', inTranches: true });
        await expectAgreement(t, world.staff, o.orderId, {
          [o.first._id]: 12_000,
          [o.second._id]: 8_000,
        });
      }
    }
  });

  it('never plans past a line with ten clerks at once, and stops an order at 50 tranches', async () => {
    const o = await countyOrder(t, world);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        http()
          .post(path(o))
          .set(bearer((i % 2 ? otherStaff : world.staff).accessToken))
          .send(ok(o, 30)),
      ),
    );
    const made = answers.filter((a) => a.status === 201).length;
    expect(answers.every((a) => [201, 400, 409].includes(a.status))).toBe(true);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(6);
    const standing = (await http().get(path(o)).set(staff()).expect(200)).body;
    expect(standing.lines[0]).toMatchObject({ planned: 30 * made, toPlan: 200 - 30 * made });
    expect(standing.tranches.map((x: { number: number }) => x.number)).toEqual(
      Array.from({ length: made }, (_, i) => i + 1),
    );
    // Numbers are never reused; the 51st tranche (cancelled ones count) is refused.
    for (let n = made + 1; n <= 50; n++) {
      await plan(o, ok(o, 1)).expect(201);
      await http()
        .post(path(o, `/${n}/cancel`))
        .set(staff())
        .expect(200);
    }
    await refusedUnchanged(o, () => plan(o, ok(o, 1)), 409, /at most 50 tranches/);
  });

  it('refuses a tranche of a batch that failed, or dated before a growing batch is ready', async () => {
    const o = await countyOrder(t, world);
    await http()
      .post(`/api/batches/${o.second._id}/fail`)
      .set(staff())
      .send({ note: 'Frost' })
      .expect(201);
    await refusedUnchanged(
      o,
      () =>
        plan(o, { ...ok(o), date: o.second.readyOn, lines: [{ ...o.lines.second, quantity: 1 }] }),
      409,
      /failed/,
    );
    const early = await plan(o, {
      ...ok(o),
      date: inDays(10),
      lines: [{ ...o.lines.first, quantity: 1 }],
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(
      new RegExp(
        `^The batch of Acacia \\w+ is ready on ${o.first.readyOn}: a tranche of its seedlings cannot be dated before then$`,
      ),
    );
  });
});
