/**
 * Without SMTP each e-mail is written to DATA_DIR/outbox as a file of its own: messages sent in the
 * same millisecond with the same subject (a burst of contact messages, a bulk action's mails) never
 * share a name, so none overwrites another, and the names sort in sending order.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { MailService } from '../src/mail/mail.service';
import {
  bearer,
  registerCustomer,
  UNTHROTTLED,
  uniqueEmail,
  type Session,
} from './support/identity';
import { decoded, outbox } from './support/mail';
import { guest, placeOrder } from './support/shop';
import { createShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

describe('mail outbox: one file per e-mail', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spc-outbox-'));
    t = await createTestApp({ name: 'outbox', env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps all of 40 e-mails with one subject sent at once, each in its own file, in sending order', async () => {
    const mail = t.app.get(MailService);
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        mail.send({
          to: `shopper${i}@example.co.ke`,
          subject: 'Your order is on its way',
          text: `Message number ${i}`,
          template: 'order-confirmation',
          for: { accountId: null },
        }),
      ),
    );
    expect(sent).toEqual(Array(40).fill(true));
    const dir = path.join(dataDir, 'outbox');
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(40);
    const recipients = await Promise.all(
      files.map(async (f) => /^To: (\S+)$/m.exec(await readFile(path.join(dir, f), 'utf8'))?.[1]),
    );
    expect(recipients).toEqual(Array.from({ length: 40 }, (_, i) => `shopper${i}@example.co.ke`));
    for (const f of files) expect(f).toMatch(/-your-order-is-on-its-way\.eml$/);
  });
});

describe("order e-mails: no headers or links from a customer's text", () => {
  let t: TestApp;
  let dataDir: string;
  let productId: string;
  let staff: Session;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-outbox-text-'));
    t = await createTestApp({ name: 'outbox_text', env: { ...UNTHROTTLED, DATA_DIR: dataDir } });
    ({ productId, staff } = await createShopWorld(t));
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('strips control characters from names and addresses and renders no link from them', async () => {
    // A signed-in customer's order greets with the name (a guest's greets with none).
    const customer = await registerCustomer(t);
    const victim = uniqueEmail('victim');
    const placed = await placeOrder(t, [{ _id: productId, quantity: 1 }], {
      token: customer.accessToken,
      guestInfo: guest({
        email: victim,
        fullName: 'X\r\nBcc: a@evil.example\r\n\r\nRefund: http://evil.example/r',
        streetAddress: 'Plot 9\nVisit www.evil.example now',
      }),
    }).expect(201);
    const order = await t
      .http()
      .get(`/api/orders/${placed.body.order._id}`)
      .set(bearer(staff.accessToken))
      .expect(200);
    expect(order.body.order.guestInfo.fullName).toBe(
      'X Bcc: a@evil.example Refund: http://evil.example/r',
    );
    expect(order.body.order.guestInfo.streetAddress).toBe('Plot 9 Visit www.evil.example now');

    const mail = await waitFor(
      async () => outbox(dataDir).find((m) => m.includes(victim)),
      (m) => m !== undefined,
      10_000,
    );
    const body = decoded(mail!);
    expect(body).not.toMatch(/^Bcc:/im);
    expect(body).not.toContain('http://evil');
    expect(body).not.toContain('www.evil');
    expect(body).not.toContain('evil.example');
    // The name typed with an order greets nobody (issue 39): the address is nobody's proven one.
    expect(body).toContain('Hello,');
    expect(body).not.toContain('Refund: http');
    expect(body).toContain('Delivery to: "Plot 9 Visit www[.]evil[.]example now');
  });
});
