import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** URL path under which stored files are served (by the API itself with local storage). */
export const UPLOADS_URL_PREFIX = '/api/uploads/';

/** Where uploaded files live: local disk by default, an S3-compatible bucket when S3_BUCKET is set. */
export abstract class FileStorage {
  /** Stores the bytes under `key` (a relative path such as `products/ab12/640.webp`); returns its URL. */
  abstract put(key: string, body: Buffer, contentType: string): Promise<string>;
  abstract delete(keys: string[]): Promise<void>;
  abstract urlFor(key: string): string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

/** Keys are made by the API, never from a client's file name; this guards that they stay so. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
}

@Injectable()
export class LocalDiskStorage extends FileStorage {
  private readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.root = path.resolve(config.uploadsDir);
  }

  async put(key: string, body: Buffer): Promise<string> {
    const file = this.pathFor(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
    return this.urlFor(key);
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathFor(key), { force: true })));
  }

  urlFor(key: string): string {
    return `${UPLOADS_URL_PREFIX}${key}`;
  }

  get directory(): string {
    return this.root;
  }

  private pathFor(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }
}
