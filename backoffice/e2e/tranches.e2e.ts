/**
 * Tranches on the back office (issue 43), run by tools/e2e/run-journeys.ts backoffice (alone:
 * JOURNEYS_ONLY=tranches). Through the API: an approved organisation with a long name, on account,
 * asks for a quotation of two lines of ready stock; the shop prices and sends it and the approver
 * accepts it, which makes an order on account. Then a clerk (staff), on a 1280 px screen, plans a
 * tranche of that order on its page (the form checks before sending; the button busy while it
 * sends), dispatches it from the dispatch desk's "Tranches due out", and downloads its delivery
 * note (a PDF, fetched signed in); on a 390 px phone the clerk records the signed note with one
 * line delivered short and its reason, and sees the tranche "Delivered (signed)". The order page
 * and the desk pass the phone checks (width, axe) at 360 and 390 px; screenshots at 360, 390 and
 * 1280 px go to JOURNEY_SHOTS_DIR (or SHOTS_DIR) when set.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../../tools/e2e/api';
import { launchChromium } from '../../tools/e2e/chromium';
import { phoneProblems, PHONES } from '../../tools/e2e/phone-check';

const BASE = process.env.BACKOFFICE_URL ?? 'http://localhost:5174';
const API = process.env.API_URL ?? 'http://localhost:3102';
const ADMIN = { email: 'admin@spc.local', password: 'Admin@1234' };
const STAFF = { email: 'staff@spc.local', password: 'Staff@1234' };
const RUN = Date.now().toString(36).toUpperCase();
const SHOTS = process.env.JOURNEY_SHOTS_DIR ?? process.env.SHOTS_DIR;
const NAME = `Nyandarua and Laikipia Highlands Catchment Restoration Programme ${RUN}`;
const SITE = `Ol Kalou Secondary School and Community Woodlot, upper catchment block ${RUN}`;
const KRA_PIN = `P${String(Date.now()).slice(-9)}T`;
const PERSON = {
  fullName: 'Njeri Wambui Gathoni',
  email: `tranches.${RUN.toLowerCase()}@example.co.ke`,
  phoneNumber: `07${String(Date.now()).slice(-8)}`,
  password: 'Seedling@1',
};
const LPO = `NLH/LPO/${RUN}/0412`;
const REASON = 'Two trays were crushed on the road and came back';

let browser: Browser;

const login = async (who: { email: string; password: string }) =>
  (await apiCall<{ data: { accessToken: string } }>(API, 'POST', '/api/auth/login', who)).data
    .accessToken;
/** Today in Nairobi plus `days`, as YYYY-MM-DD. */
const nairobiDay = (days: number) =>
  new Date(Date.now() + 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

async function signIn(who: typeof STAFF, width: number, height = 900): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    ...(width < 600 ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  await page.goto(`${BASE}/authenticate/login`);
  await page.getByLabel('Email Address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  return page;
}
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

interface Product {
  _id: string;
  productName: string;
  productQuantity: number;
  units?: { _id: string; name: string; seedlings: number }[];
}
interface Line {
  productId: string;
  unitId: string;
  quantity: number;
  productName: string;
  unitName: string;
}
interface Standing {
  productId: string;
  quantity: number;
  delivered: number;
  toPlan: number;
}
interface TrancheView {
  state: string;
  signedBy: string | null;
  lines: { productId: string; dispatched: number; delivered: number; shortReason: string | null }[];
}

let orderId = '';
let purchaseNumber = '';
let lines: Line[] = [];

before(async () => {
  browser = await launchChromium();
  await apiCall(API, 'POST', '/api/auth/register', PERSON);
  const personToken = await login({ email: PERSON.email, password: PERSON.password });
  const staffToken = await login(STAFF);
  const contact = { name: PERSON.fullName, phone: '0712345678', email: PERSON.email };
  const signedUp = await apiCall<{ organisation: { _id: string } }>(
    API,
    'POST',
    '/api/organisations',
    { name: NAME, kraPin: KRA_PIN, kind: 'ngo', billingContact: contact, deliveryContact: contact },
    personToken,
  );
  const orgId = signedUp.organisation._id;
  await apiCall(API, 'POST', `/api/organisations/${orgId}/approve`, {}, staffToken);
  await apiCall(
    API,
    'PUT',
    `/api/organisations/${orgId}/terms`,
    { paymentDays: 30, creditLimit: 900_000_000, onAccount: true },
    await login(ADMIN),
  );
  // Two lines of ready stock, each as many units as the demo stock spares (a few hundred at most).
  const { products } = await apiCall<{ products: Product[] }>(
    API,
    'GET',
    '/api/products?limit=100',
  );
  lines = products
    .flatMap((p) => {
      const unit = p.units?.find((u) => p.productQuantity >= 40 * u.seedlings);
      if (!unit) return [];
      const quantity = Math.min(1_200, Math.floor(p.productQuantity / unit.seedlings / 10));
      return [
        {
          productId: p._id,
          unitId: unit._id,
          quantity: Math.max(4, quantity),
          productName: p.productName,
          unitName: unit.name,
        },
      ];
    })
    .slice(0, 2);
  assert.equal(lines.length, 2, 'the demo catalogue has two products in stock');
  const asked = await apiCall<{ quotation: { _id: string } }>(
    API,
    'POST',
    '/api/quotations',
    {
      lines: lines.map(({ productId, unitId, quantity }) => ({ productId, unitId, quantity })),
      delivery: {
        siteName: 'Ol Kalou planting sites',
        county: 'Nyandarua',
        streetAddress: 'Ol Kalou–Nyahururu road',
        date: nairobiDay(20),
      },
    },
    personToken,
  );
  const id = asked.quotation._id;
  await apiCall(
    API,
    'PUT',
    `/api/quotations/${id}/draft`,
    {
      lines: lines.map(({ productId, unitId, quantity }) => ({
        productId,
        unitId,
        quantity,
        unitPrice: 1_875,
      })),
      delivery: {
        siteName: 'Ol Kalou planting sites',
        county: 'Nyandarua',
        streetAddress: 'Ol Kalou–Nyahururu road',
        date: nairobiDay(20),
      },
      deliveryFee: 0,
      validUntil: nairobiDay(14),
    },
    staffToken,
  );
  await apiCall(API, 'POST', `/api/quotations/${id}/send`, {}, staffToken);
  const accepted = await apiCall<{ order: { _id: string; purchaseNumber: string } }>(
    API,
    'POST',
    `/api/quotations/${id}/accept`,
    { version: 1, lpoNumber: LPO },
    personToken,
  );
  orderId = accepted.order._id;
  purchaseNumber = accepted.order.purchaseNumber;
});
after(async () => browser?.close());

const units = (n: number) => n.toLocaleString('en-US');

describe('tranches on the back office', () => {
  it('a clerk plans a tranche, dispatches it from the desk, prints its note and records its signature', async () => {
    const [first, second] = lines as [Line, Line];
    const short = Math.min(2, first.quantity - 1);
    const secondPart = Math.ceil(second.quantity / 2);

    // The order page: no tranches yet; the plan form checks before sending.
    const clerk = await signIn(STAFF, 1280);
    await clerk.goto(`${BASE}/staff/orders/${orderId}`);
    const card = clerk.getByRole('region', { name: 'Tranches' });
    await card.getByText('No tranches yet.', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Plan a tranche' }).click();
    const form = clerk.getByRole('form', { name: 'Tranche' });
    await form.getByRole('button', { name: 'Plan tranche' }).click();
    await form.getByText('The site needs a name').waitFor();
    await form.getByText('A tranche needs at least one line').waitFor();
    await form.getByLabel('Site', { exact: true }).fill(SITE);
    await form.getByLabel('County', { exact: true }).selectOption('Nyandarua');
    await form.getByLabel('Sub-county').selectOption('Ol Kalou');
    await form.getByLabel("Contact's name").fill('Samuel Kariuki Mwangi');
    await form.getByLabel("Contact's phone").fill('0722 111 333');
    await form.getByLabel('Date', { exact: true }).fill(nairobiDay(0));
    await form
      .getByRole('textbox', {
        name: `${first.unitName} of ${first.productName} from ready stock`,
        exact: true,
      })
      .fill(String(first.quantity));
    await form
      .getByRole('textbox', {
        name: `${second.unitName} of ${second.productName} from ready stock`,
        exact: true,
      })
      .fill(String(secondPart));
    await shot(clerk, 'tranche-plan-1280');
    const plan = form.getByRole('button', { name: 'Plan tranche' });
    // Two clicks: the button is busy after the first, and one tranche is planned.
    await plan.click();
    await plan.click({ force: true }).catch(() => undefined);
    await clerk.getByText('Tranche planned').first().waitFor();
    const t1 = card.getByRole('article', { name: 'Tranche T1' });
    await t1.getByText('Planned', { exact: true }).waitFor();
    await t1.getByText(SITE).waitFor();
    const planned = await apiCall<{ tranches: unknown[]; lines: Standing[] }>(
      API,
      'GET',
      `/api/orders/${orderId}/tranches`,
      undefined,
      await login(STAFF),
    );
    assert.equal(planned.tranches.length, 1, 'one tranche, however often the button was pressed');
    assert.equal(
      planned.lines.find((l) => l.productId === second.productId)!.toPlan,
      second.quantity - secondPart,
    );
    await shot(clerk, 'tranche-card-1280-planned');

    // The dispatch desk: the tranche to dispatch, linked to its order.
    await clerk.goto(`${BASE}/staff/orders?tranches=toDispatch`);
    const desk = clerk.getByRole('region', { name: 'Tranches' });
    const row = desk.getByRole('article', { name: `${purchaseNumber} T1` });
    await row.getByText(NAME).waitFor();
    await row.getByText(SITE, { exact: false }).waitFor();
    assert.equal(
      await row.getByRole('link', { name: `${purchaseNumber} · T1` }).getAttribute('href'),
      `/staff/orders/${orderId}`,
    );
    await shot(clerk, 'tranche-desk-1280-to-dispatch');
    await row.getByRole('button', { name: 'Dispatch' }).click();
    const confirm = clerk.getByRole('dialog', { name: 'Dispatch T1' });
    await confirm.getByRole('button', { name: 'Dispatch' }).click();
    await clerk.getByText('Tranche dispatched').first().waitFor();
    await row.waitFor({ state: 'detached' });
    await desk.getByRole('tab', { name: /Tranches awaiting the signed note/ }).click();
    const waiting = desk.getByRole('article', { name: `${purchaseNumber} T1` });
    await waiting.getByText('On its way').waitFor();
    await shot(clerk, 'tranche-desk-1280-awaiting');

    // Its delivery note: a PDF fetched signed in, handed to the browser as a download.
    const [response, download] = await Promise.all([
      clerk.waitForResponse((r) => r.url().includes(`/tranches/1/delivery-note.pdf`)),
      clerk.waitForEvent('download'),
      waiting.getByRole('button', { name: 'Delivery note (PDF)' }).click(),
    ]);
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['content-type'], 'application/pdf');
    // The file the browser saved (the response's body was read by the page, as a blob).
    const pdf = readFileSync(await download.path());
    assert.ok(pdf.length > 1_500, `a real PDF (${pdf.length} bytes)`);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(download.suggestedFilename(), `delivery-note-${purchaseNumber}-T1.pdf`);
    await clerk.context().close();

    // On a phone: the signed note, one line short with its reason.
    const phone = await signIn(STAFF, 390, 844);
    await phone.goto(`${BASE}/staff/orders/${orderId}`);
    const onPhone = phone.getByRole('region', { name: 'Tranches' });
    const sentT1 = onPhone.getByRole('article', { name: 'Tranche T1' });
    await sentT1.getByText('On its way').waitFor();
    await sentT1.getByRole('button', { name: 'Record signed note' }).click();
    const note = phone.getByRole('form', { name: 'Signed delivery note' });
    const firstLine = note.getByRole('group', {
      name: `${units(first.quantity)} × ${first.unitName} of ${first.productName} from ready stock`,
    });
    await firstLine.getByLabel('Delivered (units)').fill(String(first.quantity - short));
    await note.getByRole('button', { name: 'Record signed note' }).click();
    await note.getByText('Who signed the delivery note is required').waitFor();
    await firstLine.getByText('A line delivered short needs its reason').waitFor();
    await note.getByLabel('Signed by').fill('Samuel Kariuki Mwangi');
    await firstLine.getByLabel('Why short').fill(REASON);
    const problems: string[] = [];
    problems.push(...(await phoneProblems(phone, 'signed note form at 390 px')));
    await shot(phone, 'tranche-signed-note-390');
    await note.getByRole('button', { name: 'Record signed note' }).click();
    await phone.getByText('Signed note recorded').first().waitFor();
    await sentT1.getByText('Delivered (signed)').waitFor();
    await sentT1.getByText(`Short by ${short}: ${REASON}`).waitFor();
    await phone.context().close();

    const done = await apiCall<{ tranches: TrancheView[]; lines: Standing[] }>(
      API,
      'GET',
      `/api/orders/${orderId}/tranches`,
      undefined,
      await login(STAFF),
    );
    const [signed] = done.tranches;
    assert.equal(signed!.state, 'Delivered');
    assert.equal(signed!.signedBy, 'Samuel Kariuki Mwangi');
    const shortLine = signed!.lines.find((l) => l.productId === first.productId)!;
    assert.deepEqual(
      [shortLine.dispatched, shortLine.delivered, shortLine.shortReason],
      [first.quantity, first.quantity - short, REASON],
    );
    // The short part is to plan again.
    assert.equal(done.lines.find((l) => l.productId === first.productId)!.toPlan, short);

    // A second load planned for tomorrow through the API: the desk's "planned later".
    await apiCall(
      API,
      'POST',
      `/api/orders/${orderId}/tranches`,
      {
        site: {
          name: `${SITE}, second block`,
          county: 'Nyandarua',
          subCounty: 'Ol Kalou',
          contact: { name: 'Samuel Kariuki Mwangi', phone: '0722111333' },
        },
        date: nairobiDay(1),
        lines: [
          {
            productId: second.productId,
            unitId: second.unitId,
            batchId: null,
            quantity: second.quantity - secondPart,
          },
        ],
      },
      await login(STAFF),
    );

    // The order page and the desk on phones (width and axe), with the long names.
    for (const { width, height } of PHONES) {
      const page = await signIn(STAFF, width, height);
      await page.goto(`${BASE}/staff/orders/${orderId}`);
      await page
        .getByRole('region', { name: 'Tranches' })
        .getByRole('article', { name: 'Tranche T1' })
        .getByText('Delivered (signed)')
        .waitFor();
      problems.push(...(await phoneProblems(page, `order's tranches at ${width} px`)));
      await shot(page, `tranche-card-${width}`);
      await page.goto(`${BASE}/staff/orders?tranches=upcoming`);
      await page
        .getByRole('region', { name: 'Tranches' })
        .getByRole('article', { name: `${purchaseNumber} T2` })
        .getByText(NAME)
        .waitFor();
      problems.push(...(await phoneProblems(page, `tranche desk at ${width} px`)));
      await shot(page, `tranche-desk-${width}`);
      await page.context().close();
    }
    const wide = await signIn(STAFF, 1280);
    await wide.goto(`${BASE}/staff/orders/${orderId}`);
    await wide.getByText('Delivered (signed)').waitFor();
    problems.push(...(await phoneProblems(wide, "order's tranches at 1280 px")));
    await shot(wide, 'tranche-card-1280-delivered');
    await wide.context().close();
    assert.deepEqual(problems, []);
  });
});
