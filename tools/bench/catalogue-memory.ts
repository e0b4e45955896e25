/**
 * `npm run bench:catalogue-memory`: what the catalogue kept in memory (the read model's snapshot)
 * costs per product, and how long it takes to read, for two builds of the API in one run: the heap
 * the snapshot holds after a full garbage collection, measured in this process by loading it with
 * each build's own ProductsRepository and buildSnapshot (`api/dist` of this checkout, and
 * CATALOGUE_MEMORY_BASE, default `api/dist-base`: a build of an older commit; skipped when absent).
 * The whole API's RSS and start-up are the bench's growth table (`BENCH_PRODUCTS=1000,10000,100000
 * npm run bench`); this isolates the catalogue from the rest of the process (its other caches, the
 * garbage a load leaves before the collector runs), so that a change to it can be measured apart.
 *
 * A private database holds the demo catalogue grown to each size of CATALOGUE_MEMORY_PRODUCTS
 * (1000,10000,100000) as the bench grows it (copies of the demo products, renamed by lot).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import mongoose from 'mongoose';
import { MongoClient, ObjectId, type Document } from 'mongodb';
import { say, seededDatabase } from '../drills/support';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SIZES = (process.env.CATALOGUE_MEMORY_PRODUCTS ?? '1000,10000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const BUILDS = [
  {
    label: 'base',
    dist: path.resolve(
      WORKSPACE_ROOT,
      process.env.CATALOGUE_MEMORY_BASE ?? path.join('api', 'dist-base'),
    ),
  },
  { label: 'this', dist: path.join(WORKSPACE_ROOT, 'api', 'dist') },
].filter((b) => existsSync(path.join(b.dist, 'main.js')));
const DIR = path.join(DATA_DIR, 'drills', 'catalogue-memory');

interface Measured {
  heapBytes: number;
  loadMs: number;
}

/** Grows the catalogue to `size` products, copies of the demo ones (as the bench does). */
async function grow(uri: string, size: number, demo: Document[]): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const products = client.db().collection('products');
    const have = await products.countDocuments();
    for (let i = have; i < size; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(size, i + 1000); j++) {
        const source = demo[j % demo.length]!;
        batch.push({
          ...source,
          _id: new ObjectId(),
          productName: `${String(source.productName)} (lot ${Math.floor(j / demo.length)})`,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
      }
      await products.insertMany(batch);
    }
  } finally {
    await client.close();
  }
}

async function demoProducts(uri: string): Promise<Document[]> {
  const client = await MongoClient.connect(uri);
  try {
    return (await client.db().collection('products').find({}).toArray()).map(
      ({ ledgerSince: _l, stockSeq: _s, pendingMovements: _p, ...product }) => product,
    );
  } finally {
    await client.close();
  }
}

/** The snapshot one build keeps of the catalogue at `uri`: its heap after a full collection. */
async function measure(dist: string, uri: string, size: number): Promise<Measured> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { ProductsRepository } = require(path.join(dist, 'catalog', 'products.repository.js'));
  const { CategoriesRepository } = require(path.join(dist, 'catalog', 'categories.repository.js'));
  const { ProductSchema } = require(path.join(dist, 'catalog', 'schemas', 'product.schema.js'));
  const { CategorySchema } = require(path.join(dist, 'catalog', 'schemas', 'category.schema.js'));
  const { buildSnapshot } = require(
    path.join(dist, 'catalog', 'read-model', 'catalogue-snapshot.js'),
  );
  /* eslint-enable @typescript-eslint/no-require-imports */
  const connection = await mongoose.createConnection(uri, { autoIndex: false }).asPromise();
  try {
    const products = connection.model('Product', ProductSchema);
    const categories = new CategoriesRepository(
      connection.model('Category', CategorySchema),
      products,
    );
    const repository = new ProductsRepository(products, categories, undefined);
    gc();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const { products: read, categories: refs } = await repository.snapshotData();
    let snapshot = buildSnapshot(read, refs);
    const loadMs = performance.now() - started;
    gc();
    const heapBytes = process.memoryUsage().heapUsed - before;
    if (snapshot.products.length !== size)
      throw new Error(`${dist}: ${snapshot.products.length} products read, ${size} expected`);
    snapshot = undefined;
    return { heapBytes, loadMs };
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  if (!BUILDS.length) throw new Error('no built API: run `npx nx run @spc/api:build` first');
  const { db, uri } = await seededDatabase(DIR);
  const rows: string[] = [];
  try {
    const demo = await demoProducts(uri);
    for (const size of SIZES) {
      await grow(uri, size, demo);
      const cells: string[] = [];
      for (const build of BUILDS) {
        // Twice, the second kept: the first pays for the modules' and the driver's own warm-up.
        await measure(build.dist, uri, size);
        const m = await measure(build.dist, uri, size);
        say(
          'catalogue-memory',
          `${size} products, ${build.label}: ${(m.heapBytes / 1e6).toFixed(1)} MB held (${Math.round(m.heapBytes / size)} bytes a product), read in ${(m.loadMs / 1000).toFixed(2)} s`,
        );
        cells.push(
          `${(m.heapBytes / 1e6).toFixed(1)} | ${Math.round(m.heapBytes / size)} | ${(m.loadMs / 1000).toFixed(2)}`,
        );
      }
      rows.push(`| ${size} | ${cells.join(' | ')} |`);
    }
  } finally {
    await db.stop();
  }
  const head = BUILDS.map(
    (b) => `${b.label} heap MB | ${b.label} bytes a product | ${b.label} read s`,
  );
  console.log(`\n| products | ${head.join(' | ')} |`);
  console.log(`|---:|${BUILDS.map(() => '---:|---:|---:').join('|')}|`);
  for (const row of rows) console.log(row);
}

main().catch((error: Error) => {
  console.error(`[catalogue-memory] ${error.stack ?? error.message}`);
  process.exit(1);
});
