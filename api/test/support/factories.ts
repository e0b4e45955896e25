/** Small factories for catalog fixtures: categories, products (multipart), and real images. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type request from 'supertest';
import { bearer } from './identity';
import type { TestApp } from './test-app';

export interface CategoryBody {
  _id: string;
  name: string;
  description: string;
  productCount: number;
}

export interface ProductBody {
  _id: string;
  productName: string;
  productDescription: string;
  price: number;
  initialPrice: number;
  offerPrice: number;
  onOffer: boolean;
  effectivePrice: number;
  productQuantity: number;
  category: { _id: string; name: string };
  productImage: string;
  productImages: Record<string, string>;
}

/** Text fields of the product form, as the back office sends them (anything else is refused). */
export type ProductFields = Record<string, string | number | boolean | undefined>;

export interface Upload {
  buffer: Buffer;
  filename: string;
  contentType?: string;
  field?: string;
}

const unique = () => randomBytes(3).toString('hex');

/** Every catalog route as the OpenAPI document names it (the role matrix is in catalog-access). */
export const CATALOG_ROUTES = [
  'GET /api/categories',
  'GET /api/categories/{id}',
  'POST /api/categories',
  'PUT /api/categories/update/{id}',
  'DELETE /api/categories/delete/{id}',
  'GET /api/products',
  'GET /api/products/{id}',
  'GET /api/products/{id}/tax',
  'POST /api/products',
  'PUT /api/products/update/{id}',
  'PATCH /api/products/check-stock/{id}',
  'PATCH /api/products/update-stock/{id}',
  'PATCH /api/products/apply-offer/{id}',
  'DELETE /api/products/delete/{id}',
] as const;

/** The site pictures routes as the OpenAPI document names them (their matrix is in site-pictures). */
export const SITE_PICTURE_ROUTES = [
  'GET /api/site-pictures',
  'PUT /api/site-pictures/{slot}',
  'DELETE /api/site-pictures/{slot}',
] as const;

/** A throwaway uploads folder for a test app, and its removal. */
export async function tempUploadsDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'spc-catalog-uploads-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function createCategory(
  t: TestApp,
  token: string,
  overrides: Partial<{ name: string; description: string }> = {},
): Promise<CategoryBody> {
  const res = await t
    .http()
    .post('/api/categories')
    .set(bearer(token))
    .send({
      name: `Category ${unique()}`,
      description: 'Seedlings raised at the centre',
      ...overrides,
    });
  if (res.status !== 201)
    throw new Error(`create category failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.category as CategoryBody;
}

/** A complete, valid product form for `category`, with overrides (undefined leaves a field out). */
export function productFields(category: string, overrides: ProductFields = {}): ProductFields {
  return {
    productName: `Seedling ${unique()}`,
    productDescription: 'Hardened off and ready to transplant',
    price: 350,
    initialPrice: 350,
    productQuantity: 40,
    category,
    onOffer: false,
    ...overrides,
  };
}

/** Fills a multipart request with text fields and, optionally, a file. */
export function multipart(req: request.Test, fields: ProductFields, upload?: Upload): request.Test {
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) req.field(name, String(value));
  }
  if (upload) {
    req.attach(upload.field ?? 'productImage', upload.buffer, {
      filename: upload.filename,
      contentType: upload.contentType ?? 'application/octet-stream',
    });
  }
  return req;
}

export function postProduct(
  t: TestApp,
  token: string | undefined,
  fields: ProductFields,
  upload?: Upload,
): request.Test {
  const req = t.http().post('/api/products');
  if (token) req.set(bearer(token));
  return multipart(req, fields, upload);
}

export function putProduct(
  t: TestApp,
  token: string | undefined,
  id: string,
  fields: ProductFields,
  upload?: Upload,
): request.Test {
  const req = t.http().put(`/api/products/update/${id}`);
  if (token) req.set(bearer(token));
  return multipart(req, fields, upload);
}

export async function createProduct(
  t: TestApp,
  token: string,
  category: string,
  overrides: ProductFields = {},
  upload?: Upload,
): Promise<ProductBody> {
  const res = await postProduct(t, token, productFields(category, overrides), upload);
  if (res.status !== 201)
    throw new Error(`create product failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product as ProductBody;
}

/** A real PNG of a plain colour. */
export function pngImage(width = 800, height = 600, colour = '#2e7d32'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

export function jpegImage(width = 800, height = 600, colour = '#c62828'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** A PNG of a few hundred bytes that claims `width` x `height` pixels (a decompression bomb). */
export function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
