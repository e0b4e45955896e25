/**
 * `npm run bench:security`: the figures of the outside security test, measured against the built API
 * run as in production (default rate limits, TRUST_PROXY=true so each simulated client has its own
 * address through X-Forwarded-For). Prints figures; never fails on a time.
 *
 *  1. POST /api/auth/refreshToken with a body of 80,000 unknown keys: time and answer size, and
 *     GET /api/products while four such requests run.
 *  3. Units of stock one address can hold: guest orders of the largest allowed size from one address
 *     (a new phone and e-mail each time) until the API refuses three in a row.
 *  4. Sign-in time while 120 wrong-password change-password calls run 24 at a time.
 *
 * Issue 26 (SECBENCH_ONLY names `arrays`, `images`, 26.2, 26.5, 26.9):
 *  - arrays (finding 1): a 1 MB body `[{},{},…]` (349,000 items) to POST /api/contact and POST
 *    /api/orders: the time of one, and the health check's latency while ten run at once.
 *  - images (finding 8): a 40-megapixel, 16-bit, interlaced PNG of under 500 KB as a profile picture:
 *    the answer, the API's CPU time and peak RSS for one; the peak RSS for eight at once; sign-in time
 *    while twelve are uploaded at once.
 *  2. Units one address holds with 30 orders of 2,000 at once; honest shoppers accepted behind one
 *     address; one phone in six spellings; ten addresses of one IPv6 /64.
 *  5. PIN prompts reaching one phone from 40 asked at once (a Daraja simulator stands in).
 *  9. Orders paid with one receipt code in five spellings, and by five clerks at once.
 *
 * Settings: SECBENCH_DIST (the built API folder, `api/dist` by default; point it at a copy of an
 * older build to measure "before"), MONGODB_URI (else the repo's database launcher).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { ensureDatabase, freePort, withDatabaseName } from '../db/launcher';
import { startDarajaSimulator, type DarajaSimulator } from '../mpesa/simulator';
import { apiEnv, cpuMs, rssMb, sleep, startApi, stopApi, type ApiProcess } from '../drills/support';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';

const DIST = path.resolve(WORKSPACE_ROOT, process.env.SECBENCH_DIST ?? 'api/dist');

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  body: unknown;
}

async function call(
  api: ApiProcess,
  method: string,
  route: string,
  from: string,
  body?: unknown,
  token?: string,
  raw?: string,
): Promise<Answer> {
  const started = performance.now();
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${api.base}${route}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': from,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(300_000),
    });
    text = await res.text();
  } catch (error) {
    // No answer (timed out or connection closed): status 0.
    return { status: 0, ms: performance.now() - started, bytes: 0, body: String(error) };
  }
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, ms, bytes: Buffer.byteLength(text), body: parsed };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function finding1(api: ApiProcess): Promise<void> {
  const keys = 80_000;
  const raw = `{${Array.from({ length: keys }, (_, i) => `"k${i}":1`).join(',')}}`;
  console.log(`\n[1] body of ${keys} unknown keys, ${(raw.length / 1024).toFixed(0)} KB`);
  const one = await call(api, 'POST', '/api/auth/refreshToken', '10.1.0.1', undefined, '', raw);
  console.log(
    `[1] POST /api/auth/refreshToken: ${one.status} in ${fmt(one.ms)}, answer ${(one.bytes / 1024).toFixed(1)} KB`,
  );
  const alone = await call(api, 'GET', '/api/products', '10.1.0.9');
  const flood = [1, 2, 3, 4].map((i) =>
    call(api, 'POST', '/api/auth/refreshToken', `10.1.1.${i}`, undefined, '', raw),
  );
  await sleep(50);
  const during = await call(api, 'GET', '/api/products', '10.1.0.9');
  const answers = await Promise.all(flood);
  console.log(
    `[1] GET /api/products alone ${fmt(alone.ms)}, during four such requests ${fmt(during.ms)} (their answers: ${answers.map((a) => a.status).join(', ')})`,
  );
  const lines = Array.from({ length: 25_000 }, () => ({ _id: 'x', quantity: 0 }));
  const order = await call(api, 'POST', '/api/orders', '10.1.2.1', { products: lines });
  console.log(
    `[1] POST /api/orders with 25,000 invalid lines: ${order.status} in ${fmt(order.ms)}, answer ${(order.bytes / 1024).toFixed(1)} KB`,
  );
}

interface Product {
  _id: string;
  productQuantity: number;
}

async function finding3(api: ApiProcess): Promise<void> {
  const products: Product[] = [];
  for (let page = 1; page <= 10; page++) {
    const res = await call(api, 'GET', `/api/products?limit=100&page=${page}`, '10.3.9.9');
    const list = (res.body as { products: Product[] }).products ?? [];
    products.push(...list);
    if (list.length < 100) break;
  }
  const stock = new Map(products.map((p) => [p._id, p.productQuantity]));
  const totalBefore = [...stock.values()].reduce((a, b) => a + b, 0);
  const maxLines = Number(process.env.SECBENCH_MAX_LINES ?? 50);
  const perLine = Number(process.env.SECBENCH_MAX_PER_LINE ?? 1000);
  let held = 0;
  let placed = 0;
  let refusedInARow = 0;
  let lastRefusal = '';
  // The units an order may hold in all: unknown until the API names it in a refusal.
  let budget = Infinity;
  const started = performance.now();
  for (let i = 0; i < 40 && refusedInARow < 3; i++) {
    const lines: { _id: string; quantity: number }[] = [];
    let units = 0;
    for (const [id, q] of stock) {
      if (lines.length >= maxLines || units >= budget) break;
      const quantity = Math.min(q, perLine, budget - units);
      if (quantity <= 0) continue;
      lines.push({ _id: id, quantity });
      units += quantity;
    }
    if (lines.length === 0) break;
    const tag = randomBytes(3).toString('hex');
    const res = await call(api, 'POST', '/api/orders', '10.3.0.1', {
      products: lines,
      guestInfo: {
        fullName: `Hoarder ${tag}`,
        phoneNumber: `07${String(10_000_000 + i * 7919).slice(-8)}`,
        email: `hoard-${tag}@example.com`,
        county: 'Kiambu',
        streetAddress: `Plot ${tag}`,
      },
    });
    if (res.status === 201) {
      refusedInARow = 0;
      placed++;
      for (const l of lines) {
        held += l.quantity;
        stock.set(l._id, stock.get(l._id)! - l.quantity);
      }
    } else {
      refusedInARow++;
      lastRefusal = `${res.status} ${(res.body as { message?: string }).message ?? ''}`;
      const limit = /at most (\d+) seedlings in all/.exec(lastRefusal);
      if (limit) budget = Number(limit[1]);
    }
  }
  console.log(
    `\n[3] one address placed ${placed} orders in ${fmt(performance.now() - started)} holding ${held} units ` +
      `(${((100 * held) / totalBefore).toFixed(1)} % of the catalogue's ${totalBefore}); then: ${lastRefusal}`,
  );
}

// Issue 26 -----------------------------------------------------------------------------------

/** The first admin the API creates (main sets it from the environment it starts the API with). */
const admin = { email: '', password: '' };

/** A staff member's token, a category and products with stock enough never to run out. */
async function shopFloor(api: ApiProcess, tag: string, products = 2) {
  const signedIn = await call(api, 'POST', '/api/auth/login', `10.26.${tag}.250`, {
    email: admin.email,
    password: admin.password,
  });
  const adminToken = (signedIn.body as { data: { accessToken: string } }).data.accessToken;
  const staffEmail = `bench-staff-${randomBytes(3).toString('hex')}@example.co.ke`;
  await call(
    api,
    'POST',
    '/api/staff',
    `10.26.${tag}.250`,
    {
      fullName: 'Bench Clerk',
      email: staffEmail,
      phoneNumber: '0712000333',
      password: 'Staff#2026x',
    },
    adminToken,
  );
  const login = await call(api, 'POST', '/api/auth/login', `10.26.${tag}.251`, {
    email: staffEmail,
    password: 'Staff#2026x',
  });
  if (login.status !== 200) throw new Error(`staff: ${login.status} ${JSON.stringify(login.body)}`);
  const token = (login.body as { data: { accessToken: string } }).data.accessToken;
  const category = await call(
    api,
    'POST',
    '/api/categories',
    `10.26.${tag}.250`,
    { name: `Bench ${randomBytes(3).toString('hex')}`, description: 'Seedlings the bench orders' },
    token,
  );
  if (category.status !== 201)
    throw new Error(`category: ${category.status} ${JSON.stringify(category.body)}`);
  const categoryId = (category.body as { category: { _id: string } }).category._id;
  const ids: string[] = [];
  for (let i = 0; i < products; i++) {
    // The product form is multipart, as the back office sends it.
    const form = new FormData();
    const fields = {
      productName: `Bench seedling ${randomBytes(3).toString('hex')}`,
      productDescription: 'A seedling the security bench orders',
      price: '50',
      initialPrice: '50',
      productQuantity: '1000000',
      category: categoryId,
      onOffer: 'false',
    };
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const res = await fetch(`${api.base}/api/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `10.26.${tag}.250` },
      body: form,
    });
    const body = (await res.json()) as { product: { _id: string } };
    if (res.status !== 201) throw new Error(`product: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.product._id);
  }
  return { token, products: ids };
}

let benchPhone = 10_000_000 + (randomBytes(3).readUIntBE(0, 3) % 80_000_000);
const newPhone = () => `07${String(benchPhone++).slice(-8)}`;
const guestInfo = (phoneNumber = newPhone()) => ({
  fullName: 'Bench Shopper',
  phoneNumber,
  email: `shopper-${randomBytes(4).toString('hex')}@example.co.ke`,
  county: 'Kiambu',
  streetAddress: 'Ruiru, near the stage',
});
const tally = (answers: Answer[]) => {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n}×${status}`).join(', ');
};

/**
 * Issue 26, finding 2: units of stock held by one address when 30 of the largest orders arrive at
 * once; honest shoppers behind one carrier address (30, one after another) accepted; one phone in
 * six spellings; ten addresses of one IPv6 /64.
 */
async function hoarding(api: ApiProcess): Promise<void> {
  const { products } = await shopFloor(api, '2');
  const largest = products.map((_id) => ({ _id, quantity: 1000 }));
  const units = (answers: Answer[]) => answers.filter((a) => a.status === 201).length * 2000;
  const burst = await Promise.all(
    Array.from({ length: 30 }, () =>
      call(api, 'POST', '/api/orders', '41.90.2.1', { guestInfo: guestInfo(), products: largest }),
    ),
  );
  console.log(
    `\n[26.2] 30 orders of 2,000 units at once from one address: ${units(burst)} units held (${tally(burst)})`,
  );
  let honest = 0;
  for (let i = 0; i < 30; i++) {
    const res = await call(api, 'POST', '/api/orders', '197.248.2.2', {
      guestInfo: guestInfo(),
      products: [{ _id: products[0], quantity: 10 }],
    });
    if (res.status === 201) honest++;
  }
  console.log(
    `[26.2] 30 honest shoppers (10 units each) one after another behind one address: ${honest} accepted`,
  );
  const phone = newPhone().slice(1);
  const spellings = [
    `0${phone}`,
    `+254${phone}`,
    `254${phone}`,
    `0${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`,
    `+254 ${phone}`,
    phone,
  ];
  const spelled = await Promise.all(
    spellings.map((p, i) =>
      call(api, 'POST', '/api/orders', `41.90.2.${10 + i}`, {
        guestInfo: guestInfo(p),
        products: [{ _id: products[1], quantity: 1 }],
      }),
    ),
  );
  console.log(
    `[26.2] one phone written 6 ways, at once: ${spelled.filter((a) => a.status === 201).length} orders placed`,
  );
  const v6 = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(api, 'POST', '/api/orders', `2c0f:fe38:2400:1:${(i + 1).toString(16)}::1`, {
        guestInfo: guestInfo(),
        products: largest,
      }),
    ),
  );
  console.log(
    `[26.2] 10 addresses of one IPv6 /64, orders of 2,000 at once: ${units(v6)} units held (${tally(v6)})`,
  );
}

/**
 * Issue 26, finding 5: PIN prompts reaching one phone when 40 prompts for the orders naming it
 * (guest orders, as many as the API accepts) are asked at once from 40 addresses, then the next
 * ten minutes' worth as if they had passed (another 40, at once).
 */
async function prompts(api: ApiProcess, sim: DarajaSimulator): Promise<void> {
  const { products } = await shopFloor(api, '5', 1);
  const victim = newPhone();
  const orders: string[] = [];
  const placed = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(api, 'POST', '/api/orders', `41.90.5.${i + 1}`, {
        guestInfo: guestInfo(victim),
        products: [{ _id: products[0], quantity: 1 }],
      }),
    ),
  );
  for (const a of placed)
    if (a.status === 201)
      orders.push((a.body as { order: { purchaseNumber: string } }).order.purchaseNumber);
  const daraja = `254${victim.slice(1)}`;
  const reached = () => sim.pushes.filter((p) => String(p.request.PhoneNumber) === daraja).length;
  const asked = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      call(api, 'POST', '/api/payments/mpesa/stk-push', `41.90.6.${i + 1}`, {
        purchaseNumber: orders[i % orders.length],
        phoneNumber: victim,
      }),
    ),
  );
  console.log(
    `\n[26.5] ${orders.length} guest orders naming one phone (of 10 tried); 40 prompts asked at once: ${reached()} reached the phone (${tally(asked)})`,
  );
}

/** Issue 26, finding 9: orders paid with one M-Pesa code in five spellings, and by five clerks at once. */
async function receiptCodes(api: ApiProcess): Promise<void> {
  const { token, products } = await shopFloor(api, '9', 1);
  const newOrder = async (i: number) => {
    const res = await call(api, 'POST', '/api/orders', `41.90.9.${i + 1}`, {
      guestInfo: guestInfo(),
      products: [{ _id: products[0], quantity: 1 }],
    });
    return (res.body as { order: { _id: string; totalAmount: number } }).order;
  };
  const pay = (order: { _id: string; totalAmount: number }, code: string) =>
    call(
      api,
      'PATCH',
      `/api/orders/complete-payment/${order._id}`,
      '10.26.9.251',
      {
        paymentMethod: 'Mpesa',
        paymentDetails: {
          amount: order.totalAmount,
          transactionCode: code,
          timePaid: new Date().toISOString(),
        },
      },
      token,
    );
  const code = `S${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;
  const spellings = [
    code,
    code.toLowerCase(),
    `${code.slice(0, 4)} ${code.slice(4)}`,
    `${code}.`,
    `\u200b${code}`,
  ];
  const orders = [];
  for (let i = 0; i < 10; i++) orders.push(await newOrder(i));
  const oneByOne: Answer[] = [];
  for (const [i, spelling] of spellings.entries()) oneByOne.push(await pay(orders[i]!, spelling));
  const second = `S${randomBytes(5).toString('hex').toUpperCase().slice(0, 9)}`;
  const atOnce = await Promise.all(orders.slice(5).map((o) => pay(o, second)));
  const paid = (answers: Answer[]) => answers.filter((a) => a.status === 200).length;
  console.log(
    `\n[26.9] one receipt code in 5 spellings: ${paid(oneByOne)} orders paid (${tally(oneByOne)}); ` +
      `one code recorded by 5 clerks at once: ${paid(atOnce)} orders paid (${tally(atOnce)})`,
  );
}

/** A customer account (registered from its own address) and its password. */
async function account(api: ApiProcess, tag: string, address: string) {
  const email = `${tag}-${randomBytes(3).toString('hex')}@example.com`;
  const password = 'Bench#2026x';
  const reg = await call(api, 'POST', '/api/auth/register', address, {
    fullName: 'Bench Tester',
    email,
    phoneNumber: '0722123456',
    password,
  });
  if (reg.status !== 201)
    throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  return { email, password };
}

async function finding4(api: ApiProcess) {
  const attacker = await account(api, 'flood', '10.4.0.1');
  const login = await call(api, 'POST', '/api/auth/login', '10.4.0.2', attacker);
  const token = (login.body as { data: { accessToken: string } }).data.accessToken;
  // Bystanders sign in once each, from addresses of their own (no limit of theirs is reached).
  const bystanders: { email: string; password: string }[] = [];
  for (let i = 0; i < 9; i++) bystanders.push(await account(api, 'bystander', `10.4.3.${i}`));
  const signIn = (i: number) =>
    call(api, 'POST', '/api/auth/login', `10.4.2.${i}`, bystanders[i]!).then((r) => {
      if (r.status !== 200) throw new Error(`sign-in answered ${r.status}`);
      return r.ms;
    });
  const quiet: number[] = [];
  for (let i = 0; i < 3; i++) quiet.push(await signIn(i));
  const statuses = new Map<number, number>();
  let sent = 0;
  const worker = async (w: number) => {
    while (sent < 120) {
      sent++;
      const res = await call(
        api,
        'POST',
        '/api/auth/change/password',
        `10.4.1.${w}`,
        { currentPassword: 'Wrong#2026x', newPassword: 'Other#2026x' },
        token,
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  const started = performance.now();
  const flood = Promise.all(Array.from({ length: 24 }, (_, w) => worker(w)));
  // Six sign-ins started while the flood is being sent, 150 ms apart.
  const loaded = await Promise.all(
    [3, 4, 5, 6, 7, 8].map((i, k) => sleep(150 * k).then(() => signIn(i))),
  );
  await flood;
  console.log(
    `\n[4] sign-in alone: median ${fmt(median(quiet))}; started during 120 change-password calls 24 at a time: ` +
      `median ${fmt(median(loaded))}, worst ${fmt(Math.max(...loaded))} (${loaded.length} sign-ins); ` +
      `the flood took ${fmt(performance.now() - started)}, answers ${[...statuses].map(([s, c]) => `${c}×${s}`).join(', ')}`,
  );
}

/** A top-level array of `items` empty objects: `[{},{},…]`. */
const arrayOfEmptyObjects = (items: number) =>
  `[${Array.from({ length: items }, () => '{}').join(',')}]`;

/** The 1 MB top-level array of empty objects of issue 26, finding 1. */
async function arrayBodies(api: ApiProcess): Promise<void> {
  const big = arrayOfEmptyObjects(349_000);
  // The largest such array within the order route's own 64 KB limit.
  const small = arrayOfEmptyObjects(21_000);
  console.log(
    `\n[arrays] body [{},{},…] of 349,000 items (${(big.length / 1024).toFixed(0)} KB), and of 21,000 (${(small.length / 1024).toFixed(0)} KB)`,
  );
  const cases: [string, string, string][] = [
    ['/api/contact', big, '349,000'],
    ['/api/orders', big, '349,000'],
    ['/api/contact', small, '21,000'],
    ['/api/orders', small, '21,000'],
  ];
  for (const [i, [route, raw, label]] of cases.entries()) {
    const one = await call(api, 'POST', route, `10.26.1.${i}`, undefined, undefined, raw);
    const message = (one.body as { message?: unknown }).message;
    console.log(
      `[arrays] POST ${route}, ${label} items, alone: ${one.status} in ${fmt(one.ms)} (${String(message)})`,
    );
  }
  const healthAlone = await call(api, 'GET', '/api/health', '10.26.1.200');
  const started = performance.now();
  // Ten at once to the contact form, each from an address of its own; the health check asked
  // again and again meanwhile.
  let done = false;
  const flood = Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(api, 'POST', '/api/contact', `10.26.2.${i}`, undefined, undefined, big),
    ),
  ).finally(() => (done = true));
  const health: number[] = [];
  while (!done) {
    health.push((await call(api, 'GET', '/api/health', '10.26.1.201')).ms);
    await sleep(20);
  }
  const answers = await flood;
  console.log(
    `[arrays] ten 349,000-item bodies at once to POST /api/contact: all answered in ${fmt(performance.now() - started)} ` +
      `(${statusCounts(answers.map((a) => a.status))}); GET /api/health alone ${fmt(healthAlone.ms)}, ` +
      `meanwhile worst ${fmt(Math.max(...health))} (${health.length} checks)`,
  );
}

/** Runs `work`, sampling the process's RSS every 20 ms: its answer, the highest RSS (MB) and CPU (ms). */
async function measured<T>(pid: number, work: () => Promise<T>) {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const cpu = cpuMs(pid);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peak, rssMb(pid)), cpuMs: cpuMs(pid) - cpu };
  } finally {
    clearInterval(timer);
  }
}

/** A profile-picture upload (multipart, field `profilePicture`). */
async function upload(api: ApiProcess, token: string, file: Buffer, from: string) {
  const form = new FormData();
  form.append('profilePicture', new Blob([file]), 'me.png');
  const started = performance.now();
  const res = await fetch(`${api.base}/api/users/profile-picture`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': from },
    body: form,
    signal: AbortSignal.timeout(300_000),
  });
  const body = (await res.json()) as { message?: string };
  return { status: res.status, ms: performance.now() - started, message: body.message ?? '' };
}

const statusCounts = (statuses: number[]) =>
  [...new Set(statuses)].map((s) => `${statuses.filter((x) => x === s).length}×${s}`).join(', ');

async function imageDecoding(api: ApiProcess): Promise<void> {
  const flat = (width: number, height: number, channels: 3 | 4) =>
    sharp({ create: { width, height, channels, background: '#2f6b2f' } });
  const pictures: [string, Buffer][] = [
    // The finding: 40 MP, 16-bit, interlaced.
    [
      '40 MP 16-bit interlaced PNG',
      await flat(8000, 5000, 3)
        .toColourspace('rgb16')
        .png({ progressive: true, compressionLevel: 9 })
        .toBuffer(),
    ],
    // The costliest kind still taken after the fix: 12 MP, interlaced, with alpha.
    ['12 MP 8-bit interlaced PNG', await flat(4000, 3000, 4).png({ progressive: true }).toBuffer()],
  ];
  // Uploaders (each account may upload 20 a minute) and bystanders who only sign in.
  const uploaders: string[] = [];
  for (let i = 0; i < 8; i++) {
    const who = await account(api, 'uploader', `10.26.8.${i}`);
    const login = await call(api, 'POST', '/api/auth/login', `10.26.8.${i}`, who);
    uploaders.push((login.body as { data: { accessToken: string } }).data.accessToken);
  }
  const bystanders: { email: string; password: string }[] = [];
  for (let i = 0; i < 18; i++) bystanders.push(await account(api, 'bystander', `10.26.9.${i}`));
  const signIn = (i: number) =>
    call(api, 'POST', '/api/auth/login', `10.26.10.${i}`, bystanders[i]!).then((r) => {
      if (r.status !== 200) throw new Error(`sign-in answered ${r.status}`);
      return r.ms;
    });
  // Six sign-ins 100 ms apart (they overlap: argon2 takes a while), with nothing else running.
  let nextBystander = 0;
  const sixSignIns = () => {
    const first = nextBystander;
    nextBystander += 6;
    return Promise.all([0, 1, 2, 3, 4, 5].map((k) => sleep(100 * k).then(() => signIn(first + k))));
  };
  const quiet = await sixSignIns();
  console.log(
    `\n[images] six sign-ins 100 ms apart, alone: median ${fmt(median(quiet))}, worst ${fmt(Math.max(...quiet))}`,
  );
  const sendMany = (file: Buffer, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        upload(api, uploaders[i % uploaders.length]!, file, `10.26.8.${i % uploaders.length}`),
      ),
    );

  for (const [label, file] of pictures) {
    console.log(`[images] ${label}: ${(file.length / 1024).toFixed(0)} KB`);
    const one = await measured(api.pid, () => upload(api, uploaders[0]!, file, '10.26.8.0'));
    console.log(
      `[images]   one upload: ${one.result.status} in ${fmt(one.result.ms)} (${one.result.message}); ` +
        `API CPU ${fmt(one.cpuMs)}, RSS peak ${one.peakMb.toFixed(0)} MB`,
    );
    const eight = await measured(api.pid, () => sendMany(file, 8));
    console.log(
      `[images]   eight at once: ${statusCounts(eight.result.map((a) => a.status))}, the slowest ` +
        `${fmt(Math.max(...eight.result.map((a) => a.ms)))}; API CPU ${fmt(eight.cpuMs)}, RSS peak ${eight.peakMb.toFixed(0)} MB`,
    );
    const flood = sendMany(file, 12);
    const loaded = await sixSignIns();
    const twelve = await flood;
    console.log(
      `[images]   the same six sign-ins during twelve uploads at once: median ${fmt(median(loaded))}, worst ${fmt(Math.max(...loaded))} ` +
        `(uploads: ${statusCounts(twelve.map((a) => a.status))})`,
    );
  }
}

async function main(): Promise<void> {
  const dir = path.join(DATA_DIR, 'bench-security');
  const db = await ensureDatabase({ log: (m) => console.log(`[db] ${m}`) });
  const name = `secbench_${randomBytes(3).toString('hex')}`;
  const env = apiEnv(dir, db.uri, {
    MONGODB_URI: withDatabaseName(db.uri, name),
    TRUST_PROXY: 'true',
    // Only for measuring a build from before JWT_REFRESH_SECRET was dropped (ignored since).
    JWT_REFRESH_SECRET: 'r'.repeat(40),
    RATE_LIMIT_AUTH_PER_MINUTE: '10',
    RATE_LIMIT_TRACKING_PER_MINUTE: '30',
    RATE_LIMIT_ORDERS_PER_MINUTE: '30',
    // The shipped defaults of the newer limits (apiEnv lifts them for the drills).
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '5',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '20',
    LOGIN_LOCKOUT_AFTER_FAILURES: '5',
    ORDER_MAX_OPEN_UNPAID: '2',
    ORDER_MAX_UNITS_PER_ORDER: '2000',
    ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '4000',
    MPESA_PROMPTS_PER_PHONE_PER_DAY: '10',
    MPESA_PROMPTS_PER_DAY: '1000',
  });
  admin.email = env.ADMIN_EMAIL!;
  admin.password = env.ADMIN_PASSWORD!;
  const only = (process.env.SECBENCH_ONLY ?? '1,3,4,arrays,images,26.2,26.5,26.9').split(',');
  // Findings 1 and 3 need the demo catalogue (seeded as in development); 4 needs only accounts.
  if (only.includes('1') || only.includes('3')) {
    console.log(`[bench] seeding the demo catalogue into ${name} (${DIST})`);
    const seeded = spawnSync('node', [path.join(DIST, 'scripts/seed.js')], {
      cwd: WORKSPACE_ROOT,
      env: { ...env, NODE_ENV: 'development' },
      stdio: 'inherit',
    });
    if (seeded.status !== 0) throw new Error('seeding failed');
  }
  // Each finding gets an API process of its own: the first can leave the old API unable to serve.
  // Finding 26.5 prompts through a Daraja simulator (sandbox settings, pointed at it).
  const sim = await startDarajaSimulator({ delayMs: 60_000 });
  sim.setScenario({ result: 'cancelled', callback: 'none', delayMs: 60_000 });
  const mpesaPort = await freePort();
  const mpesaEnv = {
    MPESA_ENV: 'sandbox',
    MPESA_ALLOW_SANDBOX_IN_PRODUCTION: 'yes-no-real-money-is-taken',
    MPESA_BASE_URL: sim.url,
    MPESA_CONSUMER_KEY: 'bench-consumer-key',
    MPESA_CONSUMER_SECRET: 'bench-consumer-secret',
    MPESA_SHORTCODE: '174379',
    MPESA_PASSKEY: 'bench-passkey-0123456789',
    MPESA_CALLBACK_BASE_URL: `http://127.0.0.1:${mpesaPort}`,
    MPESA_CALLBACK_TOKEN: 'bench-callback-token-0123456789abcdef',
  };
  const runs: [string, (api: ApiProcess) => Promise<void>, NodeJS.ProcessEnv?][] = [
    ['1', finding1],
    ['3', finding3],
    ['4', finding4],
    ['arrays', arrayBodies],
    ['images', imageDecoding],
    ['26.2', hoarding],
    ['26.5', (api) => prompts(api, sim), mpesaEnv],
    ['26.9', receiptCodes],
  ];
  try {
    for (const [name, run, extra] of runs) {
      if (!only.includes(name)) continue;
      const api = await startApi(
        { ...env, ...extra },
        {
          quiet: true,
          main: path.join(DIST, 'main.js'),
          ...(extra === mpesaEnv ? { port: mpesaPort } : {}),
        },
      );
      try {
        await run(api);
      } catch (error) {
        console.log(`[${name}] failed: ${(error as Error).message}`);
      } finally {
        await stopApi(api);
      }
    }
  } finally {
    await sim.close();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
