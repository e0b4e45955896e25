import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { Types } from 'mongoose';
import { PURCHASE_NUMBER_PATTERN } from '@spc/shared-contracts';
import { InventoryService } from '../src/inventory/inventory.service';
import { OrderPlacementService } from '../src/orders/order-placement.service';
import {
  bearer,
  createStaff,
  registerCustomer,
  signInAdmin,
  UNTHROTTLED,
  type Session,
} from './support/identity';
import {
  createCategory,
  createProduct,
  DELIVERY,
  guest,
  placeOrder,
  stockOf,
} from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('orders', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let categoryId: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'spc-orders-'));
    t = await createTestApp({ name: 'orders', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
    categoryId = (await createCategory(t, staff.accessToken))._id;
  });
  afterAll(() => t.close());

  const product = (overrides: Parameters<typeof createProduct>[3] = {}) =>
    createProduct(t, staff.accessToken, categoryId, overrides);

  describe('placing', () => {
    it('takes prices from the catalogue, ignores a tampered price, takes the stock and answers the purchase number', async () => {
      const seedling = await product({ price: 300, productQuantity: 10 });
      const onOffer = await product({
        price: 500,
        onOffer: true,
        offerPrice: 400,
        productQuantity: 5,
      });
      const res = await t
        .http()
        .post('/api/orders')
        .send({
          guestInfo: DELIVERY,
          products: [
            { _id: seedling._id, quantity: 2, price: 1, productName: 'Free stuff', userId: '' },
            { _id: onOffer._id, quantity: 1, price: 1 },
          ],
          placedBy: new Types.ObjectId().toString(),
          totalAmount: 3,
        })
        .expect(201);
      const order = res.body.order;
      expect(res.body).toMatchObject({ success: true, message: 'Order placed successfully' });
      expect(order.purchaseNumber).toMatch(PURCHASE_NUMBER_PATTERN);
      expect(order.products).toEqual([
        expect.objectContaining({
          productName: seedling.productName,
          unitPrice: 300,
          quantity: 2,
          lineTotal: 600,
          product: expect.objectContaining({ _id: seedling._id }),
        }),
        expect.objectContaining({
          productName: onOffer.productName,
          unitPrice: 400,
          quantity: 1,
          lineTotal: 400,
        }),
      ]);
      expect(order).toMatchObject({
        subtotal: 1000,
        shippingFee: 0,
        totalAmount: 1000,
        placedBy: null,
        customerName: DELIVERY.fullName,
        orderStatus: 'Pending',
        paymentStatus: 'Pending',
        fulfillmentStatus: 'Unfulfilled',
      });
      expect(
        new Date(order.estimatedDeliveryDate).getTime() - new Date(order.orderDate).getTime(),
      ).toBe(3 * 24 * 3600 * 1000);
      expect(order.whatsappUrl).toMatch(/^https:\/\/wa\.me\/254700000000\?text=/);
      const chat = decodeURIComponent(order.whatsappUrl.split('text=')[1]);
      expect(chat).toContain(order.purchaseNumber);
      expect(chat).toContain(`${seedling.productName} x 2`);
      expect(chat).toContain('Total: KES 1,000');
      expect(await stockOf(t, seedling._id)).toBe(8);
      expect(await stockOf(t, onOffer._id)).toBe(4);
    });

    it('e-mails a confirmation with the lines, total, delivery details and tracking link', async () => {
      const p = await product({ price: 120 });
      const email = `buyer.${Date.now()}@example.co.ke`;
      const res = await placeOrder(t, [{ _id: p._id, quantity: 3 }], {
        guestInfo: { ...DELIVERY, email },
      }).expect(201);
      let mail = '';
      for (let i = 0; i < 40 && !mail; i++) {
        const outbox = path.join(dataDir, 'outbox');
        const files = existsSync(outbox) ? readdirSync(outbox) : [];
        mail =
          files
            .map((f) => readFileSync(path.join(dataDir, 'outbox', f), 'utf8'))
            .find((m) => m.includes(`To: ${email}`)) ?? '';
        if (!mail) await new Promise((r) => setTimeout(r, 50));
      }
      const text = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(text).toContain(res.body.order.purchaseNumber);
      expect(text).toContain('Total: KES 360');
      expect(text).toContain(`/track-orders?purchaseNumber=${res.body.order.purchaseNumber}`);
    });

    it('merges the same product sent twice into one line', async () => {
      const p = await product({ productQuantity: 10 });
      const res = await placeOrder(t, [
        { _id: p._id, quantity: 1 },
        { _id: p._id, quantity: 2 },
      ]).expect(201);
      expect(res.body.order.products).toHaveLength(1);
      expect(res.body.order.products[0].quantity).toBe(3);
    });

    it('refuses bad bodies with 400 and takes nothing', async () => {
      const p = await product({ productQuantity: 5 });
      const guest = await placeOrder(t, [{ _id: p._id, quantity: 1 }], { guestInfo: null }).expect(
        400,
      );
      expect(guest.body.message).toBe(
        'Delivery details (guestInfo) are required for a guest order',
      );
      const missing = await placeOrder(t, [{ _id: p._id, quantity: 1 }], {
        guestInfo: { ...DELIVERY, county: '', streetAddress: '' },
      }).expect(400);
      expect(missing.body.errors.map((e: { messages: string[] }) => e.messages[0])).toEqual([
        'County is required',
        'Street Address is required',
      ]);
      expect((await placeOrder(t, []).expect(400)).body.message).toBe('Your cart is empty.');
      // A body without its products is told the same (not that it has too many).
      const noProducts = await t.http().post('/api/orders').send({ guestInfo: DELIVERY });
      expect({ status: noProducts.status, message: noProducts.body.message }).toEqual({
        status: 400,
        message: 'Your cart is empty.',
      });
      expect((await placeOrder(t, [{ _id: p._id, quantity: 0 }]).expect(400)).body.message).toBe(
        'Quantity must be at least 1',
      );
      await placeOrder(t, [{ _id: p._id, quantity: 1.5 }]).expect(400);
      await placeOrder(t, [{ _id: 'not-an-id', quantity: 1 }]).expect(400);
      await placeOrder(t, [{ _id: { $ne: null } as unknown as string, quantity: 1 }]).expect(400);
      await placeOrder(t, [{ _id: p._id, quantity: 1 }], {
        guestInfo: { ...DELIVERY, email: { $gt: '' } },
      }).expect(400);
      await t
        .http()
        .post('/api/orders')
        .send({
          guestInfo: DELIVERY,
          products: Array.from({ length: 51 }, () => ({ _id: p._id, quantity: 1 })),
        })
        .expect(400);
      expect(await stockOf(t, p._id)).toBe(5);
    });

    it('answers 409 naming the product and what is left, taking nothing from any line', async () => {
      const plenty = await product({ productQuantity: 10 });
      const scarce = await product({ productName: 'Macadamia Grafted', productQuantity: 2 });
      const res = await placeOrder(t, [
        { _id: plenty._id, quantity: 4 },
        { _id: scarce._id, quantity: 3 },
      ]).expect(409);
      expect(res.body.message).toBe('Only 2 left of Macadamia Grafted; please lower the quantity');
      expect(res.body.code).toBe('OUT_OF_STOCK');
      expect(await stockOf(t, plenty._id)).toBe(10);
      expect(await stockOf(t, scarce._id)).toBe(2);
      const none = await product({ productName: 'Cape Gooseberry', productQuantity: 0 });
      expect((await placeOrder(t, [{ _id: none._id, quantity: 1 }]).expect(409)).body.message).toBe(
        'Cape Gooseberry is out of stock',
      );
      const gone = await placeOrder(t, [{ _id: new Types.ObjectId().toString(), quantity: 1 }]);
      expect(gone.status).toBe(409);
      expect(gone.body.message).toBe(
        'A product in your cart is no longer sold. Please remove it and try again.',
      );
      expect(gone.body.code).toBe('PRODUCT_UNAVAILABLE');
    });

    // 200 placements at once take a minute or more on a loaded two-core machine.
    it('never oversells: 200 concurrent orders of 1 against a stock of 50 give exactly 50 orders', async () => {
      const p = await product({ productQuantity: 50 });
      const results = await Promise.all(
        Array.from({ length: 200 }, () => placeOrder(t, [{ _id: p._id, quantity: 1 }])),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(50);
      expect(statuses.filter((s) => s === 409)).toHaveLength(150);
      expect(await stockOf(t, p._id)).toBe(0);
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      expect(await db.collection('orders').countDocuments({ 'products.productId': p._id })).toBe(
        50,
      );
    }, 300_000);

    it('settles placements that finish together: once answered, each order is settled, its product holds no reservation and the ledger has its sale', async () => {
      const p1 = await product({ productQuantity: 100 });
      const p2 = await product({ productQuantity: 100 });
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          placeOrder(
            t,
            i % 2
              ? [{ _id: p1._id, quantity: 1 }]
              : [
                  { _id: p1._id, quantity: 2 },
                  { _id: p2._id, quantity: 1 },
                ],
          ),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(40).fill(201));
      const ids = results.map((r) => new Types.ObjectId(r.body.order._id as string));
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      // Read at once: the answer waited for the settle write its order was in.
      expect(
        await db.collection('orders').countDocuments({ _id: { $in: ids }, ledgerSettled: true }),
      ).toBe(40);
      for (const id of [p1._id, p2._id]) {
        const doc = await db.collection('products').findOne({ _id: new Types.ObjectId(id) });
        expect(doc?.reservations ?? []).toEqual([]);
        expect(doc?.pendingMovements ?? []).toEqual([]);
      }
      const sales = await db
        .collection('stock_movements')
        .find({ productId: { $in: [p1._id, p2._id] }, reason: 'sale' })
        .toArray();
      expect(sales).toHaveLength(60);
      expect(sales.filter((m) => m.productId === p1._id).reduce((n, m) => n - m.change, 0)).toBe(
        60,
      );
      expect(new Set(sales.map((m) => `${m.productId}:${m.seq}`)).size).toBe(60);
      expect(await stockOf(t, p1._id)).toBe(40);
      expect(await stockOf(t, p2._id)).toBe(80);
    });

    it('prices from the catalogue in memory, and from the new price at once after a change', async () => {
      const p = await product({ price: 300, productQuantity: 10 });
      // The shop's first list loads the catalogue into memory; orders are priced from it.
      await t.http().get('/api/products?page=1').expect(200);
      const first = await placeOrder(t, [{ _id: p._id, quantity: 1 }]).expect(201);
      expect(first.body.order.products[0].unitPrice).toBe(300);
      await t
        .http()
        .put(`/api/products/update/${p._id}`)
        .set(bearer(staff.accessToken))
        .field('price', '450')
        .expect(200);
      const second = await placeOrder(t, [{ _id: p._id, quantity: 1 }]).expect(201);
      expect(second.body.order.products[0].unitPrice).toBe(450);
      // Removed while the catalogue in memory still held it: refused as no longer sold.
      await t.http().get('/api/products?page=1').expect(200);
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      await db.collection('products').deleteOne({ _id: new Types.ObjectId(p._id) });
      const gone = await placeOrder(t, [{ _id: p._id, quantity: 1 }]).expect(409);
      expect(gone.body.code).toBe('PRODUCT_UNAVAILABLE');
      expect(await db.collection('orders').countDocuments({ 'products.productId': p._id })).toBe(2);
    });

    it('returns the first order for a retry with the same Idempotency-Key', async () => {
      const p = await product({ productQuantity: 10 });
      const key = `checkout-${Date.now()}`;
      const first = await placeOrder(t, [{ _id: p._id, quantity: 2 }], { key }).expect(201);
      const retry = await placeOrder(t, [{ _id: p._id, quantity: 2 }], { key }).expect(200);
      expect(retry.body.order._id).toBe(first.body.order._id);
      expect(retry.body.message).toBe('This order was already placed');
      expect(await stockOf(t, p._id)).toBe(8);
      const other = await placeOrder(t, [{ _id: p._id, quantity: 5 }], { key }).expect(422);
      expect(other.body.message).toBe(
        'This Idempotency-Key was already used for a different order',
      );
      await placeOrder(t, [{ _id: p._id, quantity: 1 }], { key: 'bad key!' }).expect(400);
    });

    it('takes placedBy from the token and saves a customer’s checkout details to their record', async () => {
      const customer = await registerCustomer(t);
      const p = await product();
      const res = await placeOrder(t, [{ _id: p._id, quantity: 1 }], {
        token: customer.accessToken,
        guestInfo: { ...DELIVERY, fullName: 'Wanjiku Kamau', email: customer.user.email },
      }).expect(201);
      expect(res.body.order.placedBy).toEqual({
        _id: customer.user._id,
        fullName: 'Wanjiku Kamau',
        email: customer.user.email,
      });
      const me = await t
        .http()
        .get('/api/users/profile')
        .set(bearer(customer.accessToken))
        .expect(200);
      expect(me.body.user).toMatchObject({
        county: 'Kiambu',
        streetAddress: DELIVERY.streetAddress,
        phoneNumber: DELIVERY.phoneNumber,
      });
      const again = await placeOrder(t, [{ _id: p._id, quantity: 1 }], {
        token: customer.accessToken,
        guestInfo: null,
      }).expect(201);
      expect(again.body.order.guestInfo).toMatchObject({
        county: 'Kiambu',
        email: customer.user.email,
      });
      await placeOrder(t, [{ _id: p._id, quantity: 1 }], { token: 'expired.or.bad' }).expect(401);
    });
  });

  describe('tracking', () => {
    it('reveals status and dates only', async () => {
      const p = await product();
      const placed = await placeOrder(t, [{ _id: p._id, quantity: 1 }]).expect(201);
      const res = await t
        .http()
        .get('/api/orders/track/new-order')
        .query({ purchaseNumber: placed.body.order.purchaseNumber.toLowerCase() })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'booking',
        'deliveredDate',
        'estimatedDeliveryDate',
        'inTransitDate',
        'message',
        'orderReceivedDate',
        'orderStatus',
        'purchaseNumber',
        'success',
      ]);
      expect(res.body.orderStatus).toEqual({ currentStatus: 'Pending' });
      // An ordinary order has no booking (a booking's shows its days and money only).
      expect(res.body.booking).toBeNull();
      const text = JSON.stringify(res.body);
      for (const secret of [
        DELIVERY.fullName,
        DELIVERY.phoneNumber,
        DELIVERY.email,
        DELIVERY.streetAddress,
        'Kiambu',
      ])
        expect(text).not.toContain(secret);
    });

    it('answers 404 for an unknown number and 400 for a malformed one', async () => {
      const res = await t
        .http()
        .get('/api/orders/track/new-order')
        .query({ purchaseNumber: 'SPD22222222' })
        .expect(404);
      expect(res.body.message).toBe('Error fetching order. Please check your confirmation number.');
      await t
        .http()
        .get('/api/orders/track/new-order')
        .query({ purchaseNumber: 'SPD1' })
        .expect(400);
      await t.http().get('/api/orders/track/new-order').expect(400);
      await t.http().get('/api/orders/track/new-order?purchaseNumber[$ne]=x').expect(400);
    });
  });

  describe('reading', () => {
    it('lists orders for staff with filters, and a customer only their own', async () => {
      const customer = await registerCustomer(t);
      const p = await product();
      const mine = await placeOrder(t, [{ _id: p._id, quantity: 1 }], {
        token: customer.accessToken,
        guestInfo: { ...DELIVERY, fullName: 'Unique Buyer Name' },
      }).expect(201);
      await placeOrder(t, [{ _id: p._id, quantity: 1 }]).expect(201);

      const all = await t.http().get('/api/orders').set(bearer(staff.accessToken)).expect(200);
      expect(all.body).toMatchObject({
        success: true,
        totalOrders: expect.any(Number),
        totalPages: expect.any(Number),
      });
      expect(all.body.orders.length).toBeLessThanOrEqual(10);
      const search = await t
        .http()
        .get('/api/orders')
        .query({ search: 'unique buyer' })
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(search.body.orders.map((o: { _id: string }) => o._id)).toEqual([mine.body.order._id]);
      const byNumber = await t
        .http()
        .get('/api/orders')
        .query({ search: mine.body.order.purchaseNumber })
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(byNumber.body.totalOrders).toBe(1);
      const pending = await t
        .http()
        .get('/api/orders')
        .query({ status: 'Completed' })
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(
        pending.body.orders.every((o: { orderStatus: string }) => o.orderStatus === 'Completed'),
      ).toBe(true);
      await t
        .http()
        .get('/api/orders')
        .query({ status: 'Lost' })
        .set(bearer(staff.accessToken))
        .expect(400);
      await t.http().get('/api/orders').set(bearer(customer.accessToken)).expect(403);

      const own = await t
        .http()
        .get('/api/orders/user')
        .set(bearer(customer.accessToken))
        .expect(200);
      expect(own.body.orders.map((o: { _id: string }) => o._id)).toEqual([mine.body.order._id]);
      await t
        .http()
        .get(`/api/orders/user/${customer.user._id}`)
        .set(bearer(customer.accessToken))
        .expect(200);
      await t
        .http()
        .get(`/api/orders/user/${staff.user._id}`)
        .set(bearer(customer.accessToken))
        .expect(403);
      const ofUser = await t
        .http()
        .get(`/api/orders/user/${customer.user._id}`)
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(ofUser.body.totalOrders).toBe(1);
      await t
        .http()
        .get(`/api/orders/${mine.body.order._id}`)
        .set(bearer(customer.accessToken))
        .expect(200);
      const other = await registerCustomer(t);
      await t
        .http()
        .get(`/api/orders/${mine.body.order._id}`)
        .set(bearer(other.accessToken))
        .expect(404);
      await t.http().get('/api/orders/12345').set(bearer(staff.accessToken)).expect(400);
    });
    it('does not show a customer which member of staff recorded their payment', async () => {
      const customer = await registerCustomer(t);
      const p = await product();
      const placed = (
        await placeOrder(t, [{ _id: p._id, quantity: 1 }], {
          token: customer.accessToken,
          guestInfo: { ...DELIVERY },
        }).expect(201)
      ).body.order;
      await t
        .http()
        .patch(`/api/orders/complete-payment/${placed._id}`)
        .set(bearer(staff.accessToken))
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: placed.totalAmount } })
        .expect(200);
      const shop = { _id: '', fullName: 'Seedling Propagation Centre' };
      const one = await t
        .http()
        .get(`/api/orders/${placed._id}`)
        .set(bearer(customer.accessToken))
        .expect(200);
      expect(one.body.order.paymentDetails.completedBy).toEqual(shop);
      const mine = await t
        .http()
        .get('/api/orders/user')
        .set(bearer(customer.accessToken))
        .expect(200);
      expect(mine.body.orders[0].paymentDetails.completedBy).toEqual(shop);
      expect(JSON.stringify([one.body, mine.body])).not.toContain(staff.user.fullName);
      expect(JSON.stringify([one.body, mine.body])).not.toContain(staff.user._id);
      // Staff still see who it was.
      const asStaff = await t
        .http()
        .get(`/api/orders/${placed._id}`)
        .set(bearer(staff.accessToken))
        .expect(200);
      expect(asStaff.body.order.paymentDetails.completedBy).toEqual({
        _id: staff.user._id,
        fullName: staff.user.fullName,
      });
    });
  });

  describe('the order life cycle', () => {
    async function freshOrder(quantity = 1, token?: string) {
      const p = await product({ price: 450, productQuantity: 10 });
      const res = await placeOrder(t, [{ _id: p._id, quantity }], {
        token,
        guestInfo: token ? { ...DELIVERY } : undefined,
      }).expect(201);
      return {
        order: res.body.order as { _id: string; totalAmount: number; purchaseNumber: string },
        product: p,
      };
    }
    const act = (method: 'patch' | 'put' | 'delete', url: string, token = staff.accessToken) =>
      t.http()[method](url).set(bearer(token));

    it('goes Pending -> paid by Mpesa (Processing) -> InTransit -> Delivered -> Completed', async () => {
      const { order } = await freshOrder(2);
      const noCode = await act('patch', `/api/orders/complete-payment/${order._id}`)
        .send({ paymentMethod: 'Mpesa', paymentDetails: { amount: 900 } })
        .expect(400);
      expect(noCode.body.message).toBe('Transaction code is required');
      const wrongAmount = await act('patch', `/api/orders/complete-payment/${order._id}`)
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: 899 } })
        .expect(400);
      expect(wrongAmount.body.message).toBe('The amount must equal the order total of KES 900');
      const paid = await act('patch', `/api/orders/complete-payment/${order._id}`)
        .send({
          paymentMethod: 'Mpesa',
          paymentDetails: {
            amount: 900,
            transactionCode: 'SGH7K2LP9Q',
            timePaid: new Date().toISOString(),
            completedBy: admin.user._id,
          },
        })
        .expect(200);
      expect(paid.body.order).toMatchObject({
        paymentStatus: 'Paid',
        orderStatus: 'Processing',
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: 900,
          transactionCode: 'SGH7K2LP9Q',
          completedBy: { _id: staff.user._id },
        },
      });
      const transit = await act('patch', `/api/orders/inTransit/${order._id}`).expect(200);
      expect(transit.body.order.inTransitDate).toEqual(expect.any(String));
      const delivered = await act('patch', '/api/orders/confirm-delivery')
        .send({ orderId: order._id })
        .expect(200);
      expect(delivered.body.order).toMatchObject({
        orderStatus: 'Delivered',
        deliveredDate: expect.any(String),
      });
      const done = await act('patch', `/api/orders/complete-order/${order._id}`).expect(200);
      expect(done.body.order).toMatchObject({
        orderStatus: 'Completed',
        fulfillmentStatus: 'Fulfilled',
      });
      const log = await t
        .http()
        .get('/api/audit-logs?limit=4')
        .set(bearer(admin.accessToken))
        .expect(200);
      expect(log.body.map((e: { action: string }) => e.action)).toEqual([
        'order.fulfil',
        'order.delivered',
        'order.inTransit',
        'order.payment',
      ]);
    });

    it('refuses every transition the state machine does not allow with 409 and a reason', async () => {
      const { order } = await freshOrder();
      const refuse = async (
        method: 'patch' | 'put' | 'delete',
        url: string,
        body: object | undefined,
        reason: string,
        token?: string,
      ) => {
        const res = await act(method, url, token)
          .send(body ?? {})
          .expect(409);
        expect(res.body.message).toBe(reason);
        // The same refusal, machine-readable: what a client branches on.
        expect(res.body.code).toBe(
          reason.includes('already paid')
            ? 'ALREADY_PAID'
            : reason.startsWith('Complete the payment')
              ? 'NOT_PAID'
              : reason.includes('sales record')
                ? 'SALES_RECORD'
                : 'ILLEGAL_TRANSITION',
        );
      };
      await refuse(
        'patch',
        `/api/orders/complete-order/${order._id}`,
        undefined,
        'This order is pending; only orders in transit or delivered can be fulfilled',
      );
      await refuse(
        'patch',
        '/api/orders/confirm-delivery',
        { orderId: order._id },
        'This order is pending; only an order in transit can be marked delivered',
      );
      await act('patch', `/api/orders/inTransit/${order._id}`).expect(200);
      await refuse(
        'patch',
        `/api/orders/complete-order/${order._id}`,
        undefined,
        'Complete the payment before fulfilling this order',
      );
      await refuse(
        'patch',
        `/api/orders/inTransit/${order._id}`,
        undefined,
        'This order is in transit; only pending or processing orders can be sent out',
      );
      await refuse(
        'patch',
        `/api/orders/cancel/${order._id}`,
        undefined,
        'This order is in transit; only pending or processing orders can be cancelled',
      );
      await refuse(
        'put',
        `/api/orders/update/${order._id}`,
        { guestInfo: DELIVERY },
        'This order is in transit; delivery details can only change before it is sent out',
      );
      await act('patch', `/api/orders/complete-payment/${order._id}`)
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } })
        .expect(200);
      await refuse(
        'patch',
        `/api/orders/complete-payment/${order._id}`,
        { paymentMethod: 'Cash', paymentDetails: { amount: order.totalAmount } },
        'This order is already paid',
      );
      await refuse(
        'delete',
        `/api/orders/delete/${order._id}`,
        undefined,
        'This order is in transit and paid; it is part of the sales record and cannot be deleted',
        admin.accessToken,
      );
      await act('patch', `/api/orders/complete-order/${order._id}`).expect(200);
      await refuse(
        'patch',
        `/api/orders/cancel/${order._id}`,
        undefined,
        'This order is completed; only pending or processing orders can be cancelled',
      );
    });

    it('cancels and returns the stock; a customer may cancel only their own Pending order', async () => {
      const customer = await registerCustomer(t);
      const { order, product: p } = await freshOrder(3, customer.accessToken);
      expect(await stockOf(t, p._id)).toBe(7);
      const other = await registerCustomer(t);
      await act('patch', `/api/orders/cancel/${order._id}`, other.accessToken).expect(404);
      const res = await act(
        'patch',
        `/api/orders/cancel/${order._id}`,
        customer.accessToken,
      ).expect(200);
      expect(res.body.order).toMatchObject({
        orderStatus: 'Cancelled',
        cancelledDate: expect.any(String),
      });
      expect(await stockOf(t, p._id)).toBe(10);
      await act('patch', `/api/orders/cancel/${order._id}`).expect(409);
      expect(await stockOf(t, p._id)).toBe(10);

      const second = await freshOrder(1, customer.accessToken);
      await act('patch', `/api/orders/complete-payment/${second.order._id}`)
        .send({ paymentMethod: 'Cash', paymentDetails: { amount: second.order.totalAmount } })
        .expect(200);
      const late = await act(
        'patch',
        `/api/orders/cancel/${second.order._id}`,
        customer.accessToken,
      ).expect(409);
      expect(late.body.message).toBe(
        'This order is being processed; please contact the shop to cancel it',
      );
    });

    it('updates delivery details while Pending', async () => {
      const { order } = await freshOrder();
      const res = await act('put', `/api/orders/update/${order._id}`)
        .send({ guestInfo: { ...DELIVERY, streetAddress: 'Juja, Gate C' } })
        .expect(200);
      expect(res.body.order.guestInfo.streetAddress).toBe('Juja, Gate C');
    });

    it('finds an order by its new name and phone once a clerk changes them, not by the old', async () => {
      const { order } = await freshOrder();
      const tag = `zq${Date.now().toString(36)}`;
      const search = async (text: string) =>
        (
          await t
            .http()
            .get('/api/orders')
            .query({ search: text })
            .set(bearer(staff.accessToken))
            .expect(200)
        ).body.orders.map((o: { _id: string }) => o._id);
      await act('put', `/api/orders/update/${order._id}`)
        .send({ guestInfo: { ...DELIVERY, fullName: `Njeri ${tag}old` } })
        .expect(200);
      expect(await search(`${tag}old`)).toEqual([order._id]);
      await act('put', `/api/orders/update/${order._id}`)
        .send({
          guestInfo: { ...DELIVERY, fullName: `Njeri ${tag}new`, phoneNumber: '0733 123 987' },
        })
        .expect(200);
      expect(await search(`${tag}old`)).toEqual([]);
      expect(await search(`njeri ${tag}NE`)).toEqual([order._id]);
      expect(await search('+254733123987')).toContain(order._id);
    });

    it('lets admin delete an unpaid order (stock back) or a cancelled one', async () => {
      const { order, product: p } = await freshOrder(4);
      await act('delete', `/api/orders/delete/${order._id}`, admin.accessToken).expect(200);
      expect(await stockOf(t, p._id)).toBe(10);
      await act('patch', `/api/orders/cancel/${order._id}`).expect(404);
      await act('delete', `/api/orders/delete/${order._id}`, staff.accessToken).expect(403);
    });
  });

  describe('recovery after a crash', () => {
    it('undoes a placement that never finished: the stock comes back and the order is gone', async () => {
      const p = await product({ productQuantity: 10 });
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      const orderId = new Types.ObjectId();
      // What a crash between "stock reserved" and "order placed" leaves behind.
      await db.collection('orders').insertOne({
        _id: orderId,
        purchaseNumber: 'SPDCRASH234',
        placedBy: null,
        guestInfo: { ...DELIVERY },
        products: [
          {
            productId: p._id,
            productName: p.productName,
            productImage: '',
            unitPrice: 250,
            quantity: 3,
            lineTotal: 750,
          },
        ],
        subtotal: 750,
        shippingFee: 0,
        totalAmount: 750,
        orderStatus: 'Pending',
        paymentStatus: 'Pending',
        fulfillmentStatus: 'Unfulfilled',
        orderDate: new Date(Date.now() - 5000),
        estimatedDeliveryDate: new Date(),
        placement: 'reserving',
        ledgerSettled: false,
        stockReturn: 'none',
        createdAt: new Date(Date.now() - 5000),
        updatedAt: new Date(Date.now() - 5000),
      });
      const inventory = t.app.get(InventoryService);
      expect(await inventory.reserveStock(p._id, orderId.toString(), 3)).toBe(true);
      expect(await stockOf(t, p._id)).toBe(7);

      await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 1000 });
      expect(await stockOf(t, p._id)).toBe(10);
      expect(await db.collection('orders').countDocuments({ _id: orderId })).toBe(0);
      // Running it again changes nothing.
      await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 1000 });
      expect(await stockOf(t, p._id)).toBe(10);
    });

    it('finishes a cancellation whose stock return was interrupted, returning each line once', async () => {
      const p1 = await product({ productQuantity: 10 });
      const p2 = await product({ productQuantity: 10 });
      const placed = await placeOrder(t, [
        { _id: p1._id, quantity: 2 },
        { _id: p2._id, quantity: 5 },
      ]).expect(201);
      const id = placed.body.order._id;
      const db = t.app.get<Connection>(getConnectionToken()).db!;
      // Crash after the first line came back but before the second.
      await db.collection('orders').updateOne(
        { _id: new Types.ObjectId(id) },
        {
          $set: {
            orderStatus: 'Cancelled',
            stockReturn: 'pending',
            updatedAt: new Date(Date.now() - 5000),
          },
        },
      );
      const inventory = t.app.get(InventoryService);
      await inventory.restock(p1._id, id, 2);
      await t.app.get(OrderPlacementService).reconcile({ olderThanMs: 1000 });
      expect(await stockOf(t, p1._id)).toBe(10);
      expect(await stockOf(t, p2._id)).toBe(10);
    });
  });
});

describe('orders: paid money stays in the books (refunds, receipt codes, time paid)', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ name: 'orders_money', env: UNTHROTTLED });
    ({ admin, staff, productId } = await createShopWorld(t));
  });
  afterAll(() => t.close());

  async function paidOrder(code = `S${randomBytes(4).toString('hex').toUpperCase()}`) {
    const placed = await placeOrder(t, [{ _id: productId, quantity: 2 }], { guestInfo: guest() });
    const order = placed.body.order as { _id: string; totalAmount: number; orderDate: string };
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: code,
          timePaid: new Date().toISOString(),
        },
      })
      .expect(200);
    return { ...order, code };
  }

  it('refuses to cancel a paid order without a refund, then records it and shows it in the report', async () => {
    const order = await paidOrder();
    const refused = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .expect(409);
    expect(refused.body.message).toBe(
      `This order is paid (KES ${order.totalAmount.toLocaleString('en-US')}). To cancel it, record the refund: its method, amount and reference.`,
    );
    const wrongAmount = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: 1, reference: 'SRV0001' } })
      .expect(400);
    expect(wrongAmount.body.message).toBe(
      `The refund must be the amount paid, KES ${order.totalAmount.toLocaleString('en-US')}`,
    );
    const cancelled = await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Mpesa', amount: order.totalAmount, reference: 'SRV0001' } })
      .expect(200);
    expect(cancelled.body.order).toMatchObject({ orderStatus: 'Cancelled', paymentStatus: 'Paid' });

    // The report's days are the shop's (Nairobi).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(
      new Date(),
    );
    const report = await t
      .http()
      .get(`/api/sales-summary/report?from=${today}&to=${today}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(report.body.totals.refunds).toEqual({ orders: 1, amount: order.totalAmount });

    const audit = await t
      .http()
      .get('/api/audit-logs?action=order.cancel&limit=100')
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(
      (audit.body as { message: string }[]).some((e) =>
        e.message.includes(
          `refunded KES ${order.totalAmount.toLocaleString('en-US')} by Mpesa (SRV0001)`,
        ),
      ),
    ).toBe(true);
  });

  it('never deletes a paid order, cancelled or not', async () => {
    const order = await paidOrder();
    await t
      .http()
      .patch(`/api/orders/cancel/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({ refund: { method: 'Cash', amount: order.totalAmount, reference: 'cash back' } })
      .expect(200);
    const res = await t
      .http()
      .delete(`/api/orders/delete/${order._id}`)
      .set(bearer(admin.accessToken))
      .expect(409);
    expect(res.body.message).toContain('cannot be deleted');
    await t.http().get(`/api/orders/${order._id}`).set(bearer(admin.accessToken)).expect(200);
  });

  it('records one M-Pesa receipt code on one order only', async () => {
    const first = await paidOrder();
    const second = (await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }))
      .body.order as { _id: string; totalAmount: number };
    const res = await t
      .http()
      .patch(`/api/orders/complete-payment/${second._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: second.totalAmount,
          transactionCode: first.code,
          timePaid: new Date().toISOString(),
        },
      })
      .expect(409);
    expect(res.body.message).toContain(`The transaction code ${first.code} is already recorded`);
  });

  it('refuses a time paid before the order was placed (e.g. 1970)', async () => {
    const order = (await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest() }))
      .body.order as { _id: string; totalAmount: number };
    const res = await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: 'SOLD000001',
          timePaid: '1970-01-01T00:00:00.000Z',
        },
      })
      .expect(400);
    expect(res.body.message).toMatch(/^Time paid cannot be before the order was placed/);
  });
});

describe('orders and reports: impossible dates in filters answer 400', () => {
  let t: TestApp;
  let admin: Session;
  let staff: Session;
  let customer: Session;

  beforeAll(async () => {
    t = await createTestApp({ name: 'orders_dates', env: UNTHROTTLED });
    admin = await signInAdmin(t);
    staff = await createStaff(t, admin.accessToken);
    customer = await registerCustomer(t);
  });
  afterAll(() => t.close());

  it.each([
    ['/api/orders/user?from=20260101', 'customer'],
    ['/api/orders/user?from=2026-W01', 'customer'],
    ['/api/orders?from=2026-W01', 'staff'],
    ['/api/orders?to=2026-02-31', 'staff'],
    ['/api/sales-summary/report?from=9999-12-01&to=9999-12-31', 'admin'],
    ['/api/sales-summary/report?from=2026-02-31&to=2026-03-01', 'admin'],
  ])('GET %s answers 400', async (url, who) => {
    const token = { admin, staff, customer }[who as 'admin' | 'staff' | 'customer'].accessToken;
    const res = await t.http().get(url).set(bearer(token));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^(from|to) must be a/);
  });
});

describe("orders: a guest's Idempotency-Key is scoped by their phone and e-mail", () => {
  let t: TestApp;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp({ name: 'orders_guest_keys', env: UNTHROTTLED });
    ({ productId } = await createShopWorld(t));
  });
  afterAll(() => t.close());

  it("scopes a guest's Idempotency-Key by their phone and e-mail", async () => {
    const key = `checkout-${randomBytes(6).toString('hex')}`;
    const a = await placeOrder(t, [{ _id: productId, quantity: 1 }], { guestInfo: guest(), key });
    expect(a.status).toBe(201);
    const b = await placeOrder(t, [{ _id: productId, quantity: 2 }], { guestInfo: guest(), key });
    expect(b.status).toBe(201);
    expect(b.body.order._id).not.toBe(a.body.order._id);
  });
});
