/**
 * A gate sale's SMS receipt (issue 46), against the SMS simulator: sent on request to the sale's
 * phone through the SMS budgets, once per sale and number; a sale without a phone says so (400).
 * The steps of a gate sale text nobody by themselves.
 */
import { TILL_MESSAGES } from '@spc/shared-contracts';
import { bearer } from './support/identity';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createSmsTestApp, type SmsTestApp } from './support/sms';
import { openTillSession } from './support/till';

describe('the till’s SMS receipt', () => {
  let s: SmsTestApp;
  let world: ShopWorld;
  let sessionId: string;
  const staff = () => bearer(world.staff.accessToken);

  beforeAll(async () => {
    s = await createSmsTestApp('till_sms');
    world = await createShopWorld(s.t);
    sessionId = await openTillSession(s.t, world.staff.accessToken, 0);
  });
  afterAll(() => s.close());

  const sell = (phone?: string) =>
    s.t
      .http()
      .post('/api/till/sales')
      .set(staff())
      .send({
        sessionId,
        lines: [{ productId: world.productId, quantity: 3 }],
        payments: [{ method: 'cash', amount: 300, given: 500 }],
        ...(phone ? { phone } : {}),
      })
      .expect(201);
  const text = (orderId: string) =>
    s.t.http().post(`/api/till/sales/${orderId}/sms`).set(staff()).send({});

  it('texts the receipt to the sale’s phone once, and nothing else', async () => {
    const sale = (await sell('0711 222 333')).body.sale;
    expect((await text(sale.orderId)).status).toBe(202);
    const [message] = await s.messagesTo('+254711222333', 1);
    expect(message!.message).toContain(`receipt ${sale.purchaseNumber}`);
    expect(message!.message).toContain('change KES 200');
    expect((await text(sale.orderId)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(s.sim.outbox.filter((m) => m.to === '+254711222333')).toHaveLength(1);
  });

  it('asks for a phone when the sale has none', async () => {
    const sale = (await sell()).body.sale;
    const res = await text(sale.orderId);
    expect([res.status, res.body.message]).toEqual([400, TILL_MESSAGES.noPhone]);
  });
});
