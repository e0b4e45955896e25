/**
 * `npm run backup` / `npm run restore` on the real database server: a restore brings back the same
 * orders, products, categories and users (byte for byte in canonical EJSON), their indexes and the
 * uploaded images, and the API on the restored database serves them (customers sign in with their
 * old passwords).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BSON, MongoClient } from 'mongodb';
import { withDatabaseName } from '../../tools/db/launcher';
import { WORKSPACE_ROOT } from '../../tools/paths';
import {
  bearer,
  createStaff,
  registerCustomer,
  signIn,
  signInAdmin,
  UNTHROTTLED,
} from './support/identity';
import { createCategory, createProduct, pngImage } from './support/factories';
import { placeOrder } from './support/shop';
import { createTestApp, serverUri, type TestApp } from './support/test-app';

const TSX = path.join(WORKSPACE_ROOT, 'node_modules/.bin/tsx');
const COMPARED = ['categories', 'orders', 'products', 'users'];

function tool(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const r = spawnSync(TSX, [path.join(WORKSPACE_ROOT, `tools/backup/${script}.ts`), ...args], {
    cwd: WORKSPACE_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('npm run backup / npm run restore', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'spc-backup-e2e-'));
  const uploads = path.join(scratch, 'uploads');
  const restoredUploads = path.join(scratch, 'restored-uploads');
  const folder = path.join(scratch, 'backup');
  const restoredName = `e2e_restored_${randomBytes(3).toString('hex')}`;
  let client: MongoClient;
  let t: TestApp;
  let customer: { email: string; password: string; accessToken: string };
  let imageUrl: string;

  /** Every document of the compared collections, in canonical EJSON, in _id order. */
  async function contents(database: string): Promise<Record<string, string[]>> {
    const db = client.db(database);
    const out: Record<string, string[]> = {};
    for (const name of COMPARED) {
      const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
      out[name] = docs.map((d) => BSON.EJSON.stringify(d, { relaxed: false }));
    }
    return out;
  }
  async function indexNames(database: string): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const name of COMPARED) {
      const indexes = await client.db(database).collection(name).listIndexes().toArray();
      out[name] = indexes.map((i) => String(i.name)).sort();
    }
    return out;
  }

  beforeAll(async () => {
    client = await MongoClient.connect(serverUri());
    t = await createTestApp({ name: 'backup', env: { ...UNTHROTTLED, UPLOADS_DIR: uploads } });
    const admin = await signInAdmin(t);
    await createStaff(t, admin.accessToken);
    const registered = await registerCustomer(t);
    customer = { ...registered, email: registered.user.email };
    const category = await createCategory(t, admin.accessToken);
    const pictured = await createProduct(
      t,
      admin.accessToken,
      category._id,
      { productQuantity: 12 },
      { buffer: await pngImage(), filename: 'mango.png', contentType: 'image/png' },
    );
    imageUrl = pictured.productImage;
    const plain = await createProduct(t, admin.accessToken, category._id, {
      productQuantity: 30,
      onOffer: true,
      offerPrice: 300,
    });
    await placeOrder(t, [{ _id: pictured._id, quantity: 2 }], {
      token: customer.accessToken,
    }).expect(201);
    await placeOrder(t, [
      { _id: plain._id, quantity: 5 },
      { _id: pictured._id, quantity: 1 },
    ]).expect(201);
  });

  afterAll(async () => {
    await t?.close();
    await client
      ?.db(restoredName)
      .dropDatabase()
      .catch(() => undefined);
    await client?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('backs up every collection and the images, then restores the same orders, products and users into another database', async () => {
    const source = withDatabaseName(serverUri(), t.databaseName);
    const backup = tool('backup', ['--out', folder], { MONGODB_URI: source, UPLOADS_DIR: uploads });
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.output).toMatch(/\[backup\] e2e_backup_\w+: \d+ collections, \d+ documents/);
    expect(existsSync(path.join(folder, 'manifest.json'))).toBe(true);

    const restore = tool('restore', [folder], {
      MONGODB_URI: withDatabaseName(serverUri(), restoredName),
      UPLOADS_DIR: restoredUploads,
    });
    expect(restore).toMatchObject({ code: 0 });

    const before = await contents(t.databaseName);
    expect(before.orders).toHaveLength(2);
    expect(before.users.length).toBeGreaterThanOrEqual(3);
    expect(await contents(restoredName)).toEqual(before);
    expect(await indexNames(restoredName)).toEqual(await indexNames(t.databaseName));
    const imageFile = imageUrl.replace(/^\/api\/uploads\//, '');
    expect(existsSync(path.join(restoredUploads, imageFile))).toBe(true);
  });

  it('serves the restored shop: the customer signs in with the old password and sees the order', async () => {
    const restored = await createTestApp({
      name: 'restored_view',
      serverUri: serverUri(),
      env: {
        ...UNTHROTTLED,
        UPLOADS_DIR: restoredUploads,
        MONGODB_URI: withDatabaseName(serverUri(), restoredName),
      },
    });
    try {
      const session = await signIn(restored, customer.email, customer.password);
      const own = await restored
        .http()
        .get('/api/orders/user')
        .set(bearer(session.accessToken))
        .expect(200);
      expect(own.body.orders).toHaveLength(1);
      const list = await restored.http().get('/api/products').expect(200);
      expect(list.body.totalProducts).toBe(2);
      await restored.http().get(imageUrl).expect(200);
    } finally {
      // close() drops the restored database (afterAll would too).
      await restored.close();
    }
  });

  it('refuses to overwrite a database that holds data unless told to, then replaces it exactly', async () => {
    const target = withDatabaseName(serverUri(), t.databaseName);
    const before = await contents(t.databaseName);
    await client.db(t.databaseName).collection('orders').deleteMany({});
    await client.db(t.databaseName).collection('stray').insertOne({ note: 'not in the backup' });

    const refused = tool('restore', [folder, '--no-uploads'], { MONGODB_URI: target });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('holds data: add --drop');

    const replaced = tool('restore', [folder, '--drop', '--no-uploads'], { MONGODB_URI: target });
    expect(replaced).toMatchObject({ code: 0 });
    expect(await contents(t.databaseName)).toEqual(before);
    const names = (await client.db(t.databaseName).listCollections().toArray()).map((c) => c.name);
    expect(names).not.toContain('stray');
  });

  it('keeps backups no longer than --keep-days: older ones of this shop go, other folders stay (issue 31)', () => {
    const shelf = path.join(scratch, 'shelf');
    const made = (name: string, daysAgo: number, app = 'spc-shop') => {
      mkdirSync(path.join(shelf, name), { recursive: true });
      const createdAt = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
      writeFileSync(path.join(shelf, name, 'manifest.json'), JSON.stringify({ app, createdAt }));
    };
    made('spc-old', 31);
    made('spc-recent', 29);
    made('someone-elses', 90, 'another-app');
    mkdirSync(path.join(shelf, 'notes'));
    const source = withDatabaseName(serverUri(), t.databaseName);
    const res = tool(
      'backup',
      ['--out', path.join(shelf, 'spc-new'), '--no-uploads', '--keep-days', '30'],
      { MONGODB_URI: source },
    );
    expect(res).toMatchObject({ code: 0 });
    expect(res.output).toContain('[backup] kept 30 days: deleted spc-old');
    for (const kept of ['spc-new', 'spc-recent', 'someone-elses', 'notes'])
      expect(existsSync(path.join(shelf, kept))).toBe(true);
    expect(existsSync(path.join(shelf, 'spc-old'))).toBe(false);
    expect(
      tool('backup', ['--out', path.join(shelf, 'x'), '--keep-days', '0'], { MONGODB_URI: source })
        .code,
    ).not.toBe(0);
  });
});
