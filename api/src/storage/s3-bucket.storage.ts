import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { sha256Hex, signS3Request } from './s3-signature';
import { assertSafeKey, FileStorage } from './storage.service';

export type S3Settings = NonNullable<AppConfig['s3']>;

const TIMEOUT_MS = 15_000;

/**
 * Uploaded images in an S3-compatible bucket (AWS S3, Cloudflare R2, DigitalOcean Spaces, Backblaze
 * B2, MinIO...), so that every API instance on every server sees the same files. Objects are written
 * path-style (`<endpoint>/<bucket>/<key>`) with a long cache lifetime (their names carry a content
 * hash) and served from S3_PUBLIC_URL (the bucket's public address or a CDN in front of it).
 */
export class S3BucketStorage extends FileStorage {
  private readonly logger = new Logger('S3BucketStorage');

  constructor(private readonly s3: S3Settings) {
    super();
  }

  async put(key: string, body: Buffer, contentType: string): Promise<string> {
    const res = await this.send('PUT', key, body, {
      'content-type': contentType,
      'cache-control': 'public, max-age=31536000, immutable',
    });
    if (!res.ok) {
      throw new Error(
        `Storing ${key} in bucket ${this.s3.bucket} failed: ${res.status} ${await res.text()}`,
      );
    }
    return this.urlFor(key);
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map(async (key) => {
        const res = await this.send('DELETE', key).catch((e: Error) => e);
        // A file that is already gone is fine; anything else leaves an orphan worth a line in the log.
        if (res instanceof Error || (!res.ok && res.status !== 404)) {
          this.logger.warn(
            `Could not delete ${key} from bucket ${this.s3.bucket}: ${res instanceof Error ? res.message : res.status}`,
          );
        }
      }),
    );
  }

  urlFor(key: string): string {
    return `${this.s3.publicUrl}/${key}`;
  }

  private send(
    method: 'PUT' | 'DELETE',
    key: string,
    body?: Buffer,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    assertSafeKey(key);
    const url = new URL(`${this.s3.endpoint}/${this.s3.bucket}/${key}`);
    const signed = signS3Request(
      { method, url, headers, payloadHash: body ? sha256Hex(body) : undefined },
      this.s3,
    );
    // fetch sets Host itself, to the same value that was signed.
    delete signed.host;
    return fetch(url, {
      method,
      headers: signed,
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }
}
