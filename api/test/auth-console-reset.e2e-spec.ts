import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bearer,
  createStaff,
  registerCustomer,
  signIn,
  signInAdmin,
  UNTHROTTLED,
  uniqueEmail,
} from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait';

const STOREFRONT = 'https://shop.seedlings.example';
const BACKOFFICE = 'https://console.seedlings.example';
const SAME_ANSWER = {
  success: true,
  message:
    'If an account exists for this e-mail, we have sent it a link to reset the password. The link is valid for one hour.',
};

/** The reset link of a forgotten password leads to the site where that account signs in. */
describe('forgot password: the link leads to the console for staff and admin, to the shop for customers', () => {
  let t: TestApp;
  let dataDir: string;
  let adminToken: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'spc-console-reset-'));
    t = await createTestApp({
      name: 'console_reset',
      env: {
        ...UNTHROTTLED,
        DATA_DIR: dataDir,
        STOREFRONT_URL: STOREFRONT,
        BACKOFFICE_URL: BACKOFFICE,
      },
    });
    adminToken = (await signInAdmin(t)).accessToken;
  });
  afterAll(() => t.close());

  const outbox = () => path.join(dataDir, 'outbox');
  const mails = (): string[] => {
    try {
      return readdirSync(outbox())
        .sort()
        .map((f) => readFileSync(path.join(outbox(), f), 'utf8').replace(/=\r?\n/g, ''));
    } catch {
      return [];
    }
  };
  const mailsTo = (address: string) => mails().filter((m) => m.includes(`To: ${address}`));

  /** Asks for a reset, checks the answer, and gives back the one link mailed to the address. */
  async function forgot(email: string): Promise<string> {
    const before = mailsTo(email).length;
    const res = await t.http().post('/api/auth/forgot/password').send({ email }).expect(200);
    expect(res.body).toEqual(SAME_ANSWER);
    // The link is mailed after the answer (a known address answers as soon as an unknown one).
    const sent = await waitFor(
      async () => mailsTo(email),
      (m) => m.length > before,
      10_000,
      25,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(mailsTo(email)).toHaveLength(before + 1);
    const link = sent[sent.length - 1]!.match(
      /https?:\/\/\S+\/authenticate\/resetPassword\/[\w-]+/,
    );
    if (!link) throw new Error('no reset link in the e-mail');
    return link[0];
  }

  it("sends a staff member the back office's reset page, and the code there sets the new password", async () => {
    const staff = await createStaff(t, adminToken);
    const link = await forgot(staff.user.email);
    expect(link.startsWith(`${BACKOFFICE}/authenticate/resetPassword/`)).toBe(true);

    const code = link.split('/').pop()!;
    const reset = await t
      .http()
      .post('/api/auth/reset/password')
      .send({ code, password: 'Console#Back7' })
      .expect(200);
    expect(reset.body.message).toBe('Your password has been reset. You can now sign in.');
    const session = await signIn(t, staff.user.email, 'Console#Back7');
    expect(session.user.role).toBe('staff');
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: staff.user.email, password: staff.password })
      .expect(401);
  });

  it("sends the admin the back office's reset page", async () => {
    const link = await forgot(t.config.admin.email);
    expect(link.startsWith(`${BACKOFFICE}/authenticate/resetPassword/`)).toBe(true);
  });

  it("still sends a customer the shop's reset page", async () => {
    const customer = await registerCustomer(t);
    const link = await forgot(customer.user.email);
    expect(link.startsWith(`${STOREFRONT}/authenticate/resetPassword/`)).toBe(true);
  });

  it('answers an unknown e-mail exactly the same and mails nobody', async () => {
    const count = mails().length;
    const ghost = uniqueEmail('ghost');
    const res = await t.http().post('/api/auth/forgot/password').send({ email: ghost }).expect(200);
    expect(res.body).toEqual(SAME_ANSWER);
    expect(mails()).toHaveLength(count);
    expect(mailsTo(ghost)).toHaveLength(0);
  });

  it('answers a deactivated staff member the same and mails no link', async () => {
    const staff = await createStaff(t, adminToken);
    await t
      .http()
      .patch(`/api/staff/softDelete/${staff.user._id}`)
      .set(bearer(adminToken))
      .expect(200);
    const count = mails().length;
    const res = await t
      .http()
      .post('/api/auth/forgot/password')
      .send({ email: staff.user.email })
      .expect(200);
    expect(res.body).toEqual(SAME_ANSWER);
    expect(mails()).toHaveLength(count);
  });
});
