/**
 * Every file of shop data taken out of the API is in the audit trail: who took it, when, what and
 * which range. The orders CSV and the audit trail's CSV by their filters, an order's receipt or
 * delivery note PDF when staff or an admin open it (a customer's own documents are theirs).
 */
import { shopDay } from '../src/common/shop-clock';
import { describeAuditActivity } from '@spc/shared-contracts';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import { createCategory, createProduct, DELIVERY, placeOrder } from './support/shop';
import { createTestApp, type TestApp } from './support/test-app';

interface Entry {
  action: string;
  message: string;
  timestamp: string;
  performedBy: { id: string; fullName: string; role: string };
  target?: { type: string; id: string; label?: string };
}

describe('exports are audited: who, what, when and which range', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;
  let order: { _id: string; purchaseNumber: string; totalAmount: number };

  beforeAll(async () => {
    t = await createTestApp({ name: 'audit_exports', env: UNTHROTTLED });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken, { fullName: 'Grace Clerk' });
    customer = await registerCustomer(t, { fullName: 'Njeri Wambui' });
    const categoryId = (await createCategory(t, staff.accessToken))._id;
    const productId = (
      await createProduct(t, staff.accessToken, categoryId, { price: 250, productQuantity: 50 })
    )._id;
    const placed = await placeOrder(t, [{ _id: productId, quantity: 2 }], {
      token: customer.accessToken,
      guestInfo: { ...DELIVERY, fullName: 'Njeri Wambui' },
    }).expect(201);
    order = placed.body.order;
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
      .expect(200);
  });
  afterAll(() => t.close());

  const entries = async (action: string): Promise<Entry[]> =>
    (
      await t
        .http()
        .get(`/api/audit-logs?action=${action}`)
        .set(bearer(admin.accessToken))
        .expect(200)
    ).body;

  it('records an orders CSV export with its author, time, row count and filters', async () => {
    // The shop's day (Nairobi): from 21:00 UTC it is already tomorrow there.
    const today = shopDay(new Date());
    const before = Date.now();
    const res = await t
      .http()
      .get(`/api/orders/export.csv?from=2026-01-01&to=${today}&paymentStatus=Paid`)
      .set(bearer(staff.accessToken))
      .expect(200);
    const rows = res.text.trim().split('\n').length - 1;
    expect(rows).toBeGreaterThanOrEqual(1);
    const [entry, ...others] = await entries('orders.export');
    expect(others).toEqual([]);
    const what = `${rows === 1 ? '1 order' : `${rows} orders`} as CSV (from 2026-01-01 to ${today}; paymentStatus "Paid")`;
    expect(entry).toMatchObject({
      action: 'orders.export',
      message: `Grace Clerk exported ${what}`,
      performedBy: { id: staff.user._id, fullName: 'Grace Clerk', role: 'staff' },
      target: { type: 'export', id: `orders-2026-01-01_to_${today}.csv`, label: what },
    });
    expect(new Date(entry!.timestamp).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(describeAuditActivity(entry!.action, entry!.target?.label)).toBe(`Exported ${what}`);
  });

  it("records an export of the audit trail with the admin's filters", async () => {
    await t
      .http()
      .get('/api/audit-logs/export?from=2026-01-01&role=staff')
      .set(bearer(admin.accessToken))
      .expect(200);
    const [entry] = await entries('audit.export');
    expect(entry).toMatchObject({
      performedBy: { role: 'admin' },
      target: { type: 'export', id: 'audit-trail.csv' },
    });
    expect(entry!.message).toMatch(
      /exported \d+ audit entr(y|ies) as CSV \(from 2026-01-01; role "staff"\)$/,
    );
  });

  it("records staff opening an order's receipt and delivery note, not the customer opening their own", async () => {
    const pdf = (kind: string, who: Session) =>
      t.http().get(`/api/orders/${order._id}/${kind}.pdf`).set(bearer(who.accessToken)).expect(200);
    await pdf('receipt', staff);
    await pdf('delivery-note', admin);
    await pdf('receipt', customer);
    const opened = await entries('order.document');
    expect(opened.map((e) => [e.performedBy.role, e.target?.id, e.message])).toEqual([
      [
        'admin',
        `delivery-note-${order.purchaseNumber}.pdf`,
        `${admin.user.fullName} exported the delivery note of order ${order.purchaseNumber} as PDF`,
      ],
      [
        'staff',
        `receipt-${order.purchaseNumber}.pdf`,
        `Grace Clerk exported the receipt of order ${order.purchaseNumber} as PDF`,
      ],
    ]);
    // The order's own timeline tells its story, not who printed it.
    const detail = await t
      .http()
      .get(`/api/orders/${order._id}/detail`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(JSON.stringify(detail.body.timeline)).not.toContain('exported');
  });
});
