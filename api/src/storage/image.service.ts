import { createHash } from 'node:crypto';
import {
  Injectable,
  Logger,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Semaphore } from 'async-mutex';
import sharp from 'sharp';
import { LIMITS } from '@spc/shared-contracts';
import { IMAGE_TOO_LARGE_MESSAGE } from '../common/multipart';
import { FileStorage } from './storage.service';

export type ImageKind = 'jpeg' | 'png' | 'webp';

/** An image checked and encoded in its widths, not stored yet (`ImageService.prepare`). */
export interface PreparedImage {
  widths: number[];
  defaultWidth: number;
  /** WebP, one for each of `widths`. */
  pictures: Buffer[];
  /** Names the files: the first 16 hex digits of the original's SHA-256. */
  hash: string;
  width: number;
  height: number;
}

export interface StoredImage {
  /** URL of the default size. */
  url: string;
  /** URL per width, for srcset. */
  urls: Record<number, string>;
  keys: string[];
  /** Size of the default picture as stored: turned upright, never enlarged. */
  width: number;
  height: number;
}

/** Decoding more pixels than this is refused: a small file can hide an enormous image. */
const MAX_INPUT_PIXELS = 40_000_000;
/**
 * An interlaced PNG or a progressive JPEG is decoded whole into memory before it can be resized (an
 * ordinary one is read a strip at a time, a JPEG even at a fraction of its size): 40 megapixels of it
 * cost seconds and hundreds of MB. 12 megapixels is a phone's photo.
 */
const MAX_PROGRESSIVE_PIXELS = 12_000_000;
/** Bits per channel: photos have 8; 16 doubles the work and the memory for nothing a page shows. */
const MAX_BITS_PER_SAMPLE = 8;
/** WebP's largest side: a narrow, tall picture would be this tall at the largest width. */
const MAX_OUTPUT_SIDE = 16_383;
/** libvips stops a decode that takes longer (checked as it works, so it may run a little over). */
const DECODE_TIMEOUT_SECONDS = 5;
/**
 * Pictures decoded at once. sharp runs each one on a thread of libuv's pool (4 threads), the pool
 * argon2 hashes passwords on: one at a time leaves three to sign-ins, files and DNS whatever the
 * uploads, and bounds the memory decoding takes to one picture's.
 */
export const IMAGE_DECODES_AT_ONCE = 1;
/** Uploads waiting for their turn beyond this are answered 503 at once instead of queueing. */
export const IMAGE_DECODES_WAITING = 8;

// One libvips thread per picture (sharp's default on glibc Linux, said here for every platform) and
// no cache of decoded pictures: each upload is decoded once.
sharp.concurrency(1);
sharp.cache(false);

export const UNSUPPORTED_IMAGE_MESSAGE = 'Only JPEG, PNG or WebP images are accepted';

/** Tells the image type from the first bytes of the file, whatever its name or declared type says. */
export function sniffImage(bytes: Buffer): ImageKind | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return undefined;
}

const TOO_LARGE_DIMENSIONS_MESSAGE = `The image is too large in dimensions (at most ${MAX_INPUT_PIXELS / 1e6} megapixels)`;
export const PROGRESSIVE_TOO_LARGE_MESSAGE = `An interlaced PNG or progressive JPEG may be at most ${MAX_PROGRESSIVE_PIXELS / 1e6} megapixels; save it as an ordinary JPEG or PNG, or smaller`;
export const DEEP_COLOUR_MESSAGE = `Images must have at most ${MAX_BITS_PER_SAMPLE} bits per colour channel; save it as an ordinary JPEG, PNG or WebP`;
export const TOO_TALL_MESSAGE = 'The image is too narrow for its height to be shown';
export const DECODE_TOO_SLOW_MESSAGE =
  'The image took too long to process; save it smaller or as an ordinary JPEG and try again';
export const IMAGES_BUSY_MESSAGE =
  'Many pictures are being processed right now; please try again in a moment';
const DAMAGED_MESSAGE = 'The image could not be read; it may be damaged';
/** How sharp (libvips) says an image has more pixels than `limitInputPixels`. */
const TOO_MANY_PIXELS = /pixel limit|Input image exceeds/i;
/** How sharp says a decode ran past its timeout. */
const TIMED_OUT = /timeout/i;

/** Refuses, from the header alone, an image that would cost too much to decode. */
function assertAffordable(metadata: sharp.Metadata): void {
  const { width, height } = metadata;
  if (!width || !height || width * height > MAX_INPUT_PIXELS)
    throw new UnprocessableEntityException(TOO_LARGE_DIMENSIONS_MESSAGE);
  const eightBit = metadata.depth === undefined || metadata.depth === 'uchar';
  if (!eightBit || (metadata.bitsPerSample ?? 8) > MAX_BITS_PER_SAMPLE)
    throw new UnprocessableEntityException(DEEP_COLOUR_MESSAGE);
  if (metadata.isProgressive && width * height > MAX_PROGRESSIVE_PIXELS)
    throw new UnprocessableEntityException(PROGRESSIVE_TOO_LARGE_MESSAGE);
}

/** The size of the image once turned upright. */
function upright(metadata: sharp.Metadata): { width: number; height: number } {
  const sideways = (metadata.orientation ?? 1) >= 5;
  return sideways
    ? { width: metadata.height!, height: metadata.width! }
    : { width: metadata.width!, height: metadata.height! };
}

/**
 * Checks an uploaded image by its content, decodes it (refusing bombs), and stores it re-encoded as
 * WebP in the given widths. Nothing of the original file (bytes after the image, metadata, its name)
 * is kept.
 */
@Injectable()
export class ImageService {
  private readonly logger = new Logger(ImageService.name);
  private readonly decodes = new Semaphore(IMAGE_DECODES_AT_ONCE);
  /** Uploads decoding or waiting to. */
  private pending = 0;

  constructor(private readonly storage: FileStorage) {}

  assertAcceptable(bytes: Buffer): ImageKind {
    if (bytes.length > LIMITS.imageMaxBytes)
      throw new PayloadTooLargeException(IMAGE_TOO_LARGE_MESSAGE);
    const kind = sniffImage(bytes);
    if (!kind) throw new UnsupportedMediaTypeException(UNSUPPORTED_IMAGE_MESSAGE);
    return kind;
  }

  /** Checks, decodes and re-encodes `bytes` (see `prepare`), then stores them under `folder`. */
  async store(
    bytes: Buffer,
    folder: string,
    widths: number[],
    defaultWidth: number,
  ): Promise<StoredImage> {
    return this.put(await this.prepare(bytes, widths, defaultWidth), folder);
  }

  /**
   * The image checked by its content and decoded (refusing bombs), as WebP in the given widths,
   * ready to be stored by `put`: under one folder, or the same pictures under several (the demo
   * catalogue's sizes of one variety), decoded once.
   */
  async prepare(bytes: Buffer, widths: number[], defaultWidth: number): Promise<PreparedImage> {
    this.assertAcceptable(bytes);
    const full = upright(await this.inspect(bytes));
    const largest = Math.min(Math.max(...widths), full.width);
    if (Math.round((full.height * largest) / full.width) > MAX_OUTPUT_SIDE)
      throw new UnprocessableEntityException(TOO_TALL_MESSAGE);
    const width = Math.min(defaultWidth, full.width);
    return {
      widths,
      defaultWidth,
      pictures: await this.render(bytes, widths),
      hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
      width,
      height: Math.round((full.height * width) / full.width),
    };
  }

  /** Stores a prepared image's pictures under `folder`: all of them, or none when one fails. */
  async put(image: PreparedImage, folder: string): Promise<StoredImage> {
    const urls: Record<number, string> = {};
    const keys: string[] = [];
    for (const [i, width] of image.widths.entries()) {
      const key = `${folder}/${image.hash}-${width}.webp`;
      try {
        urls[width] = await this.storage.put(key, image.pictures[i]!, 'image/webp');
      } catch (error) {
        // The storage (a bucket) is away or refuses: not the uploader's fault, and worth a log line.
        await this.storage.delete(keys);
        this.logger.error(`Storing ${key} failed: ${(error as Error).message}`);
        throw new ServiceUnavailableException(
          'The image could not be stored right now. Please try again in a moment.',
        );
      }
      keys.push(key);
    }
    return {
      url: urls[image.defaultWidth] ?? urls[image.widths[0]!]!,
      urls,
      keys,
      width: image.width,
      height: image.height,
    };
  }

  /**
   * A photo of a paper (a scanned document) as JPEG, checked and decoded as any picture is (bombs
   * refused, one decode at a time): turned upright, at most `maxSide` pixels on its longer side,
   * flattened on white, and without its metadata (a phone's EXIF names where it was taken).
   */
  async uprightJpeg(bytes: Buffer, maxSide: number): Promise<Buffer> {
    await this.inspect(bytes);
    return this.inTurn(() =>
      sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
        .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
        .rotate()
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }

  /** The image's header, no pixel decoded: refuses (422) what would cost too much to decode. */
  private async inspect(bytes: Buffer): Promise<sharp.Metadata> {
    let metadata: sharp.Metadata;
    try {
      metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    } catch (error) {
      if (error instanceof Error && TOO_MANY_PIXELS.test(error.message))
        throw new UnprocessableEntityException(TOO_LARGE_DIMENSIONS_MESSAGE);
      throw new UnprocessableEntityException(DAMAGED_MESSAGE);
    }
    assertAffordable(metadata);
    return metadata;
  }

  /** The picture as WebP in each width, decoded once (turned upright, at the largest width). */
  private render(bytes: Buffer, widths: number[]): Promise<Buffer[]> {
    return this.inTurn(async () => {
      const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
        .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
        .rotate()
        .resize({ width: Math.max(...widths), withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const raw = { width: info.width, height: info.height, channels: info.channels };
      const pictures: Buffer[] = [];
      for (const width of widths) {
        pictures.push(
          await sharp(data, { raw })
            .resize({ width, withoutEnlargement: true })
            .webp({ quality: 80 })
            .toBuffer(),
        );
      }
      return pictures;
    });
  }

  /**
   * Runs a decode when its turn comes: IMAGE_DECODES_AT_ONCE at a time, IMAGE_DECODES_WAITING more
   * waiting, any more 503; what libvips says of a failed decode becomes a 422 in words.
   */
  private async inTurn<T>(decode: () => Promise<T>): Promise<T> {
    if (this.pending >= IMAGE_DECODES_AT_ONCE + IMAGE_DECODES_WAITING)
      throw new ServiceUnavailableException(IMAGES_BUSY_MESSAGE);
    this.pending++;
    try {
      return await this.decodes.runExclusive(decode);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (TOO_MANY_PIXELS.test(message))
        throw new UnprocessableEntityException(TOO_LARGE_DIMENSIONS_MESSAGE);
      if (TIMED_OUT.test(message)) throw new UnprocessableEntityException(DECODE_TOO_SLOW_MESSAGE);
      throw new UnprocessableEntityException(DAMAGED_MESSAGE);
    } finally {
      this.pending--;
    }
  }

  async remove(keys: string[]): Promise<void> {
    if (keys.length) await this.storage.delete(keys);
  }
}
