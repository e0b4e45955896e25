/**
 * Images in an S3-compatible bucket (S3_BUCKET): the API writes product images to a real S3 server
 * over HTTP (gofakes3, a Go module built once into .data/bin where Go is installed), links them at
 * S3_PUBLIC_URL, and deletes them with the product. gofakes3 does not check request signatures; the
 * signer is checked against Amazon's worked examples in src/storage/s3-signature.spec.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../../tools/paths';
import { freePort } from './support/api-process';
import { createCategory, createProduct, pngImage } from './support/factories';
import { bearer, signInAdmin, UNTHROTTLED } from './support/identity';
import { createTestApp, type TestApp } from './support/test-app';

const GOFAKES3 = 'github.com/johannesboyne/gofakes3/cmd/gofakes3@v1.2.0';
const BIN_DIR = path.join(WORKSPACE_ROOT, '.data/bin');
const BUCKET = 'shop-images';

/** The gofakes3 binary: on PATH, in .data/bin, or built there now with Go; undefined without Go. */
function gofakes3(): string | undefined {
  const local = path.join(BIN_DIR, 'gofakes3');
  if (existsSync(local)) return local;
  const onPath = spawnSync('sh', ['-c', 'command -v gofakes3'], { encoding: 'utf8' });
  if (onPath.status === 0) return onPath.stdout.trim();
  if (spawnSync('sh', ['-c', 'command -v go']).status !== 0) return undefined;
  const built = spawnSync('go', ['install', GOFAKES3], {
    env: { ...process.env, GOBIN: BIN_DIR },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (built.status !== 0) throw new Error(`go install ${GOFAKES3} failed:\n${built.stderr}`);
  return local;
}

const binary = gofakes3();
const describeWithS3 = binary ? describe : describe.skip;
if (!binary) console.warn('storage-s3: skipped, neither gofakes3 nor Go is installed');

describeWithS3('product images in an S3-compatible bucket', () => {
  let server: ChildProcess;
  let endpoint: string;
  let t: TestApp;
  let admin: string;
  const uploads = mkdtempSync(path.join(tmpdir(), 'spc-s3-uploads-'));

  beforeAll(async () => {
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    server = spawn(
      binary!,
      ['-backend', 'memory', '-host', `127.0.0.1:${port}`, '-initialbucket', BUCKET],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(endpoint).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t = await createTestApp({
      name: 'storage_s3',
      env: {
        ...UNTHROTTLED,
        UPLOADS_DIR: uploads,
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'test-access-key',
        S3_SECRET_ACCESS_KEY: 'test-secret-key',
        S3_PUBLIC_URL: `${endpoint}/${BUCKET}/`,
      },
    });
    admin = (await signInAdmin(t)).accessToken;
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    server?.kill('SIGTERM');
    rmSync(uploads, { recursive: true, force: true });
  });

  it('stores the WebP widths in the bucket and links them at S3_PUBLIC_URL, nothing on local disk', async () => {
    const category = await createCategory(t, admin);
    const product = await createProduct(
      t,
      admin,
      category._id,
      {},
      {
        buffer: await pngImage(),
        filename: 'avocado.png',
        contentType: 'image/png',
      },
    );
    expect(product.productImage.startsWith(`${endpoint}/${BUCKET}/products/`)).toBe(true);
    const urls = Object.values(product.productImages);
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
      expect(bytes.toString('latin1', 8, 12)).toBe('WEBP');
    }
    expect(readdirSync(uploads)).toEqual([]);

    // Deleting the product deletes its files from the bucket.
    await t.http().delete(`/api/products/delete/${product._id}`).set(bearer(admin)).expect(200);
    for (const url of urls) expect((await fetch(url)).status).toBe(404);
  });

  it('answers 503 with a clear message, and stores nothing, when the bucket refuses the upload', async () => {
    const broken = await createTestApp({
      name: 'storage_s3_missing',
      env: {
        ...UNTHROTTLED,
        UPLOADS_DIR: uploads,
        S3_BUCKET: 'no-such-bucket',
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: 'test-access-key',
        S3_SECRET_ACCESS_KEY: 'test-secret-key',
        S3_PUBLIC_URL: `${endpoint}/no-such-bucket`,
      },
    });
    try {
      const token = (await signInAdmin(broken)).accessToken;
      const category = await createCategory(broken, token);
      const res = await broken
        .http()
        .post('/api/products')
        .set(bearer(token))
        .field('productName', 'Tree tomato')
        .field('productDescription', 'Hardened off and ready to transplant')
        .field('price', '200')
        .field('initialPrice', '200')
        .field('productQuantity', '5')
        .field('category', category._id)
        .field('onOffer', 'false')
        .attach('productImage', await pngImage(), { filename: 'a.png', contentType: 'image/png' });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        success: false,
        message: 'The image could not be stored right now. Please try again in a moment.',
      });
      const list = await broken.http().get('/api/products').expect(200);
      expect(list.body.totalProducts).toBe(0);
    } finally {
      await broken.close();
    }
  });
});
