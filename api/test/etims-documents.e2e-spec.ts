/**
 * An order's eTIMS documents as their readers see them (issue 45), against the OSCU simulator: the
 * order detail gives staff and the order's own customer each document's CU invoice number,
 * signature, time and QR link (another customer gets nothing of it); the receipt and delivery note
 * PDFs print them with the tax by type; a document KRA has not signed (OSCU offline) prints
 * "eTIMS pending". The documents are queued here directly, as the payment hooks queue them.
 */
import { startEtimsSimulator, type EtimsSimulator } from '../../tools/etims/simulator';
import { EtimsQueue } from '../src/etims/etims-queue.service';
import type { EtimsDocumentInput } from '../src/etims/etims-request';
import { OscuClient } from '../src/etims/oscu-client';
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import {
  etimsEnv,
  lineOf,
  oscuItem,
  SANDBOX_CMC_KEY as CMC_KEY,
  SANDBOX_PIN as PIN,
} from './support/etims';
import { binary, pdfText } from './support/quotations';
import { DELIVERY, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

const tomato = oscuItem('KE2NTU0000001', 'Tomato seedlings, tray of 50', 'B', 450);
const avocado = oscuItem('KE2NTU0000002', 'Hass avocado grafted seedling', 'A', 250, {
  itemClsCd: '1016150000',
});

interface EtimsEntry {
  kind: string;
  trdInvcNo: string;
  state: string;
  cuInvoiceNo: string | null;
  signature: string | null;
  signedAt: string | null;
  qrUrl: string | null;
  taxes: { taxType: string; amount: number; taxable: number; tax: number }[];
}

describe("an order's eTIMS documents: detail and PDFs", () => {
  let sim: EtimsSimulator;
  let t: TestApp;
  let queue: EtimsQueue;
  let staff: Session;
  let customer: Session;
  let other: Session;
  let productId: string;

  beforeAll(async () => {
    // The specification's answer carries the control unit id (sdcId) the CU number starts with.
    sim = await startEtimsSimulator({ cmcKey: CMC_KEY, answerShape: 'specification' });
    t = await createTestApp({
      name: 'etims_docs',
      env: {
        ...UNTHROTTLED,
        ...etimsEnv(sim),
      },
    });
    queue = t.app.get(EtimsQueue);
    const kra = new OscuClient({
      baseUrl: sim.apiUrl,
      tokenUrl: sim.tokenUrl,
      consumerKey: 'k',
      consumerSecret: 's',
      tin: PIN,
      bhfId: '00',
      deviceSerial: 'SPC-LOCAL-0001',
      cmcKey: CMC_KEY,
      timeoutMs: 5000,
    });
    for (const item of [tomato, avocado])
      expect(await kra.saveItem(item)).toEqual({ kind: 'ok', data: null });
    ({ staff, productId } = await createShopWorld(t, {
      staff: { fullName: 'Grace Clerk' },
      product: { name: 'Grafted Hass avocado', price: 250, quantity: 500 },
    }));
    customer = await registerCustomer(t, { fullName: 'Njeri Wambui' });
    other = await registerCustomer(t, { fullName: 'Otieno Other' });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  afterEach(() => sim.setScenario('accepted'));

  /** The customer's order, its sale queued for eTIMS (before payment: a payment hook finds it), then paid. */
  async function paidOrderWithSale(code: string): Promise<{ _id: string; purchaseNumber: string }> {
    const placed = await placeOrder(t, [{ _id: productId, quantity: 2 }], {
      token: customer.accessToken,
      guestInfo: { ...DELIVERY, fullName: customer.user.fullName },
    });
    expect(placed.status).toBe(201);
    const order = placed.body.order as { _id: string; purchaseNumber: string; totalAmount: number };
    const input: EtimsDocumentInput = {
      source: `order:${order._id}:sale`,
      kind: 'sale',
      trdInvcNo: order.purchaseNumber,
      orderId: order._id,
      paymentType: '06',
      at: new Date(),
      lines: [lineOf(tomato, 2), lineOf(avocado, 1)],
    };
    expect(await queue.enqueue(input)).toMatchObject({ created: true });
    await t
      .http()
      .patch(`/api/orders/complete-payment/${order._id}`)
      .set(bearer(staff.accessToken))
      .send({
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: code,
          timePaid: new Date(Date.now() - 60_000).toISOString(),
        },
      })
      .expect(200);
    return order;
  }

  const detail = (id: string, token: string) =>
    t.http().get(`/api/orders/${id}/detail`).set(bearer(token));
  const pdf = (id: string, kind: 'receipt' | 'delivery-note', token: string) =>
    t.http().get(`/api/orders/${id}/${kind}.pdf`).set(bearer(token)).buffer(true).parse(binary);

  it('shows a signed sale to staff and its own customer, prints it on the receipt and delivery note; another customer gets nothing', async () => {
    const order = await paidOrderWithSale('SET1AB2CD3');
    await queue.sendDue();
    const state = await waitFor(
      async () =>
        ((await detail(order._id, staff.accessToken)).body.etims as EtimsEntry[])[0]?.state,
      (s) => s === 'signed',
      10_000,
    );
    expect(state).toBe('signed');
    const [signed] = sim.invoices().filter((i) => i.trdInvcNo === order.purchaseNumber);
    expect(signed).toBeDefined();
    const kra = signed!.signature;

    for (const token of [staff.accessToken, customer.accessToken]) {
      const res = await detail(order._id, token).expect(200);
      const etims = res.body.etims as EtimsEntry[];
      expect(etims).toHaveLength(1);
      const [doc] = etims;
      expect(doc).toMatchObject({
        kind: 'sale',
        trdInvcNo: order.purchaseNumber,
        state: 'signed',
        signature: kra.rcptSign,
        cuInvoiceNo: `${kra.sdcId}/${kra.rcptNo}`,
      });
      expect(doc!.qrUrl).toBe(
        `${sim.portalUrl}/common/link/etims/receipt/indexEtimsReceiptData?Data=${PIN}00${kra.rcptSign}`,
      );
      expect(new Date(doc!.signedAt!).getTime()).not.toBeNaN();
      expect(doc!.taxes).toEqual([
        expect.objectContaining({ taxType: 'A', amount: 250, taxable: 250, tax: 0 }),
        expect.objectContaining({ taxType: 'B', amount: 900, taxable: 775.86, tax: 124.14 }),
      ]);
    }
    // KRA's page (the simulator's) answers the QR link with this receipt.
    const [doc] = (await detail(order._id, customer.accessToken)).body.etims as EtimsEntry[];
    expect(await (await fetch(doc!.qrUrl!)).json()).toMatchObject({
      found: true,
      trdInvcNo: order.purchaseNumber,
    });

    // Another customer: neither the order nor its documents.
    const refused = await detail(order._id, other.accessToken);
    expect([403, 404]).toContain(refused.status);
    expect(JSON.stringify(refused.body)).not.toContain(kra.rcptSign);
    const refusedPdf = await pdf(order._id, 'receipt', other.accessToken);
    expect([403, 404]).toContain(refusedPdf.status);

    for (const kind of ['receipt', 'delivery-note'] as const) {
      const res = await pdf(order._id, kind, customer.accessToken).expect(200);
      const text = await pdfText(res.body as Buffer);
      expect(text).toContain(`CU invoice number: ${doc!.cuInvoiceNo}`);
      expect(text).toContain(`Signature: ${kra.rcptSign}`);
      expect(text).toContain('B · Standard rate 16 %');
      expect(text).toContain('KES 124.14');
      expect(text).not.toContain('eTIMS pending');
      // The QR code links KRA's check page.
      expect((res.body as Buffer).toString('latin1')).toContain(`/URI (${doc!.qrUrl})`);
    }
  });

  // Last: the document OSCU did not answer waits for its retry at the head of the line.
  it('prints "eTIMS pending" while OSCU is offline, and the detail says pending', async () => {
    sim.setScenario('offline');
    const order = await paidOrderWithSale('SET1AB2CD4');
    await queue.sendDue();
    const res = await detail(order._id, customer.accessToken).expect(200);
    expect(res.body.etims).toEqual([
      expect.objectContaining({
        kind: 'sale',
        trdInvcNo: order.purchaseNumber,
        state: 'pending',
        cuInvoiceNo: null,
        signature: null,
        qrUrl: null,
      }),
    ]);
    expect(sim.invoices().filter((i) => i.trdInvcNo === order.purchaseNumber)).toEqual([]);
    const receipt = await pdf(order._id, 'receipt', customer.accessToken).expect(200);
    const text = await pdfText(receipt.body as Buffer);
    expect(text).toContain('eTIMS pending');
    expect(text).not.toContain('CU invoice number');
    expect(text).toContain('B · Standard rate 16 %');
    expect((receipt.body as Buffer).toString('latin1')).not.toContain('/URI');
  });
});
