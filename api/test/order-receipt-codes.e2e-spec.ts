/**
 * One M-Pesa receipt code pays one order, ever (issue 26): the code is kept in one spelling (upper
 * case, no blanks, punctuation or invisible characters) under a unique index, so neither another
 * spelling nor clerks recording it at the same moment pay a second order with it.
 */
import { randomBytes } from 'node:crypto';
import { createCategory, createProduct, DELIVERY, placeOrder } from './support/shop';
import {
  bearer,
  createStaff,
  signInAdmin,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

interface PlacedOrder {
  _id: string;
  purchaseNumber: string;
  totalAmount: number;
}

const newCode = () => `S${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;

describe('M-Pesa receipt codes recorded in the back office', () => {
  let t: TestApp;
  let staff: Session;
  let clerks: Session[];
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ name: 'receipts', env: UNTHROTTLED });
    const admin = await signInAdmin(t);
    clerks = await Promise.all(Array.from({ length: 5 }, () => createStaff(t, admin.accessToken)));
    staff = clerks[0]!;
    const category = await createCategory(t, staff.accessToken);
    productId = (
      await createProduct(t, staff.accessToken, category._id, { productQuantity: 100_000 })
    )._id;
  });
  afterAll(() => t.close());

  async function newOrder(): Promise<PlacedOrder> {
    const res = await placeOrder(t, [{ _id: productId, quantity: 1 }], {
      guestInfo: { ...DELIVERY, email: uniqueEmail('buyer') },
    }).expect(201);
    return res.body.order as PlacedOrder;
  }

  function completePayment(order: PlacedOrder, code: string, clerk = staff) {
    return t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(clerk.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: code,
          timePaid: new Date().toISOString(),
        },
      });
  }

  it('pays one order with a code written in five spellings', async () => {
    const code = newCode();
    const orders = await Promise.all(Array.from({ length: 5 }, newOrder));
    const first = await completePayment(orders[0]!, code.toLowerCase()).expect(200);
    // Kept in its one spelling: what the clerk typed in lower case reads as M-Pesa writes it.
    expect(first.body.order.paymentDetails.transactionCode).toBe(code);
    const spellings = [
      ` ${code.slice(0, 4)} ${code.slice(4)} `,
      `${code}.`,
      `\u200b${code}`,
      `${code.slice(0, 3)}-${code.slice(3)}\ufeff`,
    ];
    for (const [i, spelling] of spellings.entries()) {
      const res = await completePayment(orders[i + 1]!, spelling).expect(409);
      expect(res.body.message).toBe(
        `The transaction code ${code} is already recorded for order ${orders[0]!.purchaseNumber}. Check the code on the M-Pesa message.`,
      );
    }
    const unpaid = await t
      .http()
      .get(`/api/orders/${orders[4]!._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(unpaid.body.order.paymentStatus).toBe('Pending');
  });

  it('pays one order when five clerks record one code at once', async () => {
    const code = newCode();
    const orders = await Promise.all(Array.from({ length: 5 }, newOrder));
    const answers = await Promise.all(
      orders.map((order, i) => completePayment(order, code, clerks[i]!)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('pays one order when one code is recorded 40 times at once', async () => {
    const code = newCode();
    const orders = await Promise.all(Array.from({ length: 40 }, newOrder));
    const answers = await Promise.all(
      orders.map((order, i) => completePayment(order, i % 2 ? code : code.toLowerCase())),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(39);
    // The refused ones changed nothing: each can still be paid with a code of its own.
    const refused = orders[answers.findIndex((r) => r.status === 409)]!;
    await completePayment(refused, newCode()).expect(200);
  });

  it('keeps a code used after its order is cancelled and refunded', async () => {
    const code = newCode();
    const [paid, other] = await Promise.all([newOrder(), newOrder()]);
    await completePayment(paid, code).expect(200);
    await t
      .http()
      .patch(`/api/orders/cancel/${paid._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: paid.totalAmount, reference: newCode() } })
      .expect(200);
    await completePayment(other, code).expect(409);
  });

  it('refuses a code with a letter that only looks Latin, naming the field', async () => {
    const order = await newOrder();
    const res = await completePayment(order, `${newCode().slice(0, 9)}\u0410`).expect(400);
    expect(res.body.message).toBe(
      'The transaction code must be the letters and digits of the M-Pesa message',
    );
    expect(res.body.errors).toEqual([
      {
        field: 'paymentDetails.transactionCode',
        messages: ['Only the letters A-Z and digits 0-9'],
      },
    ]);
  });
});
