/**
 * `npm run bench`: the API's hot paths under load, beside a bare node:http server answering the same
 * product-list JSON from memory (the ceiling). A private database is seeded with the demo catalogue
 * and grown to BENCH_PRODUCTS products; the API runs built, as in production. Prints requests/s,
 * p50/p99 latency and each listing's throughput as a share of the ceiling. Never fails on a time.
 *
 * Settings: BENCH_PRODUCTS (10000), BENCH_CONNECTIONS (50), BENCH_SECONDS (10),
 * BENCH_ORDER_CONNECTIONS (the connections placing orders; 10 by default, as each order waits for
 * its stock writes). After the order run, once the orders stopped changing (requests in flight when
 * the load ended finish in the API after it), it checks that the stock taken equals the quantities
 * ordered (nothing oversold, nothing lost). SPC_DB_SERVER=secantus-py|secantus-rs picks the server.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { MongoClient, ObjectId } from 'mongodb';
import { freePort, withDatabaseName, type DatabaseHandle } from '../db/launcher';
import { serverName } from '../db/probe';
import {
  apiEnv,
  buildApi,
  privateDatabase,
  seed,
  startApi,
  stopApi,
  type ApiProcess,
} from '../drills/support';
import { DATA_DIR } from '../paths';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ORDER_CONNECTIONS = Number(process.env.BENCH_ORDER_CONNECTIONS ?? 10);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  ratio?: number;
  connections: number;
}

async function main(): Promise<void> {
  const dir = path.join(DATA_DIR, 'bench');
  rmSync(dir, { recursive: true, force: true });
  const db = await privateDatabase(dir);
  const uri = withDatabaseName(db.uri, 'bench');
  let api: ApiProcess | undefined;
  try {
    console.log('[bench] building the API');
    buildApi();
    const env = apiEnv(dir, db.uri, { MONGODB_URI: uri });
    console.log('[bench] seeding the demo catalogue');
    seed(env);
    const ids = await grow(uri);

    api = await startApi(env);
    const base = api.base;

    const page1 = await (await fetch(`${base}/api/products?page=1`)).text();
    const ceilingPort = await freePort();
    const ceiling = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(page1);
    });
    await new Promise<void>((r) => ceiling.listen(ceilingPort, '127.0.0.1', r));

    const category = JSON.parse(page1).categories[0]._id as string;
    const rows: Row[] = [];
    const ceilingRow = await load(
      'ceiling: node:http, same JSON',
      `http://127.0.0.1:${ceilingPort}/`,
    );
    rows.push(ceilingRow);
    const listings = [
      await load('GET /api/products (page 1)', `${base}/api/products?page=1`),
      await load(
        'GET /api/products (category + price)',
        `${base}/api/products?category=${category}&minPrice=100&maxPrice=1500&page=1`,
      ),
      await load('GET /api/products (search)', `${base}/api/products?search=avocado&page=1`),
    ];
    for (const row of listings) rows.push({ ...row, ratio: row.rps / ceilingRow.rps });
    rows.push(
      await load('GET /api/products/:id (random)', base, {
        setupRequest: (req) => ({
          ...req,
          path: `/api/products/${ids[Math.floor(Math.random() * ids.length)]}`,
        }),
      }),
    );
    const stockBefore = await totalStock(uri);
    const ordersFrom = new Date();
    rows.push(
      await load('POST /api/orders (1 line, random product)', base, {
        connections: ORDER_CONNECTIONS,
        timeout: 60,
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          path: '/api/orders',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            guestInfo: {
              fullName: 'Bench Buyer',
              phoneNumber: '0722000111',
              email: 'bench@example.co.ke',
              county: 'Kiambu',
              streetAddress: 'Ruiru',
            },
            products: [{ _id: ids[Math.floor(Math.random() * ids.length)], quantity: 1 }],
          }),
        }),
      }),
    );
    ceiling.close();
    print(rows);
    await checkOrders(uri, stockBefore, ordersFrom, rows.at(-1)!, db);
  } finally {
    await stopApi(api);
    await db.stop();
  }
}

/** Grows the catalogue to PRODUCTS by copying the seeded products, with stock to spare for orders. */
async function grow(uri: string): Promise<string[]> {
  const client = await MongoClient.connect(uri);
  try {
    const products = client.db().collection('products');
    const seeded = await products.find({}).toArray();
    await products.updateMany({}, { $set: { productQuantity: 1_000_000 } });
    const copies = [];
    for (let i = seeded.length; i < PRODUCTS; i++) {
      const source = seeded[i % seeded.length]!;
      copies.push({
        ...source,
        _id: new ObjectId(),
        productName: `${source.productName} (lot ${Math.floor(i / seeded.length)})`,
        productQuantity: 1_000_000,
        reservations: [],
        restockedFor: [],
        createdAt: new Date(),
        updatedAt: new Date(),
      });
    }
    for (let i = 0; i < copies.length; i += 1000)
      await products.insertMany(copies.slice(i, i + 1000));
    const ids = (
      await products
        .find({}, { projection: { _id: 1 } })
        .limit(2000)
        .toArray()
    ).map((p) => p._id.toString());
    console.log(`[bench] catalogue: ${await products.countDocuments()} products`);
    return ids;
  } finally {
    await client.close();
  }
}

async function load(
  name: string,
  url: string,
  options: Partial<autocannon.Request> & {
    method?: string;
    connections?: number;
    timeout?: number;
  } = {},
): Promise<Row> {
  const { connections = CONNECTIONS, timeout, ...request } = options;
  const result = await autocannon({
    url,
    connections,
    duration: SECONDS,
    ...(timeout ? { timeout } : {}),
    ...(Object.keys(request).length ? { requests: [request as autocannon.Request] } : {}),
  });
  const row = {
    connections,
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(`[bench] ${name}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms`);
  return row;
}

function print(rows: Row[]): void {
  console.log(
    `\nBench: ${PRODUCTS} products, ${CONNECTIONS} connections, ${SECONDS} s each, on ${process.platform}/${process.arch} with ${cpus().length} CPUs\n`,
  );
  console.log(
    '| scenario | connections | req/s | p50 ms | p99 ms | errors | non-2xx | share of ceiling |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.ratio === undefined ? '' : r.ratio.toFixed(2)} |`,
    );
  }
}

async function totalStock(uri: string): Promise<number> {
  const client = await MongoClient.connect(uri);
  try {
    const docs = await client
      .db()
      .collection<{ productQuantity: number }>('products')
      .find({}, { projection: { productQuantity: 1 } })
      .toArray();
    return docs.reduce((sum, d) => sum + d.productQuantity, 0);
  } finally {
    await client.close();
  }
}

interface Ledger {
  placed: number;
  unfinished: number;
  reservations: number;
  ordered: number;
  stock: number;
}

/** The orders placed since `from`, the placements not finished, and the stock, read together. */
async function ledger(client: MongoClient, from: Date): Promise<Ledger> {
  const db = client.db();
  const orders = await db
    .collection<{ products: { quantity: number }[] }>('orders')
    .find({ placement: 'placed', createdAt: { $gte: from } }, { projection: { products: 1 } })
    .toArray();
  const unfinished = await db
    .collection('orders')
    .countDocuments({ placement: { $in: ['reserving', 'undoing'] } });
  const reservations = await db
    .collection('products')
    .countDocuments({ 'reservations.0': { $exists: true } });
  const stock = await db
    .collection<{ productQuantity: number }>('products')
    .aggregate<{ total: number }>([{ $group: { _id: null, total: { $sum: '$productQuantity' } } }])
    .toArray();
  return {
    placed: orders.length,
    unfinished,
    reservations,
    ordered: orders.reduce((sum, o) => sum + o.products.reduce((s, l) => s + l.quantity, 0), 0),
    stock: stock[0]?.total ?? 0,
  };
}

/**
 * Every unit of stock taken belongs to a placed order; exits non-zero otherwise. Orders answered
 * after the load ended (the API finishes requests whose client left) would make a check made at
 * once compare a moving ledger, so it waits until no placement is half-done, no product holds a
 * reservation, and two readings 2 s apart agree.
 */
async function checkOrders(
  uri: string,
  stockBefore: number,
  from: Date,
  row: Row,
  db: DatabaseHandle,
): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const started = Date.now();
    let last = await ledger(client, from);
    for (;;) {
      await new Promise((r) => setTimeout(r, 2000));
      const now = await ledger(client, from);
      const still =
        now.unfinished === 0 &&
        now.reservations === 0 &&
        now.placed === last.placed &&
        now.stock === last.stock;
      last = now;
      if (still) break;
      if (Date.now() - started > 180_000) {
        console.error('[bench] the orders did not stop changing within 180 s');
        break;
      }
    }
    const taken = stockBefore - last.stock;
    console.log(
      `\nOrders: ${last.placed} placed in ${SECONDS} s (${(last.placed / SECONDS).toFixed(1)}/s) on ${await serverName(client.db())} [${db.description}]; ` +
        `${taken} units of stock taken for ${last.ordered} units ordered (settled after ${((Date.now() - started) / 1000).toFixed(0)} s); ${row.errors} errors, ${row.non2xx} non-2xx answers`,
    );
    if (taken !== last.ordered || last.unfinished || last.reservations) {
      console.error(
        `[bench] stock taken (${taken}) differs from the quantities ordered (${last.ordered}), or ${last.unfinished} placements and ${last.reservations} reservations are left`,
      );
      process.exitCode = 1;
    }
  } finally {
    await client.close();
  }
}

main().catch((error: Error) => {
  console.error(`[bench] ${error.message}`);
  process.exit(1);
});
