import { createHash } from 'node:crypto';
import {
  Injectable,
  Logger,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
  UnprocessableEntityException,
} from '@nestjs/common';
import sharp from 'sharp';
import { LIMITS } from '@spc/shared-contracts';
import { FileStorage } from './storage.service';

export type ImageKind = 'jpeg' | 'png' | 'webp';

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

export const UNSUPPORTED_IMAGE_MESSAGE = 'Only JPEG, PNG or WebP images are accepted';
export const IMAGE_TOO_LARGE_MESSAGE = `Images must be at most ${LIMITS.imageMaxBytes / (1024 * 1024)} MB`;

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

const TOO_LARGE_DIMENSIONS_MESSAGE = 'The image is too large in dimensions (at most 40 megapixels)';
/** How sharp (libvips) says an image has more pixels than `limitInputPixels`. */
const TOO_MANY_PIXELS = /pixel limit|Input image exceeds/i;

/**
 * Checks an uploaded image by its content, decodes it (refusing bombs), and stores it re-encoded as
 * WebP in the given widths. Nothing of the original file (bytes after the image, metadata, its name)
 * is kept.
 */
@Injectable()
export class ImageService {
  private readonly logger = new Logger(ImageService.name);

  constructor(private readonly storage: FileStorage) {}

  assertAcceptable(bytes: Buffer): ImageKind {
    if (bytes.length > LIMITS.imageMaxBytes)
      throw new PayloadTooLargeException(IMAGE_TOO_LARGE_MESSAGE);
    const kind = sniffImage(bytes);
    if (!kind) throw new UnsupportedMediaTypeException(UNSUPPORTED_IMAGE_MESSAGE);
    return kind;
  }

  async store(
    bytes: Buffer,
    folder: string,
    widths: number[],
    defaultWidth: number,
  ): Promise<StoredImage> {
    this.assertAcceptable(bytes);
    let metadata: sharp.Metadata;
    try {
      metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    } catch (error) {
      if (error instanceof Error && TOO_MANY_PIXELS.test(error.message))
        throw new UnprocessableEntityException(TOO_LARGE_DIMENSIONS_MESSAGE);
      throw new UnprocessableEntityException('The image could not be read; it may be damaged');
    }
    if (
      !metadata.width ||
      !metadata.height ||
      metadata.width * metadata.height > MAX_INPUT_PIXELS
    ) {
      throw new UnprocessableEntityException(TOO_LARGE_DIMENSIONS_MESSAGE);
    }
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const urls: Record<number, string> = {};
    const keys: string[] = [];
    for (const width of widths) {
      let webp: Buffer;
      try {
        webp = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
          .rotate()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer();
      } catch (error) {
        await this.storage.delete(keys);
        if (error instanceof Error && /pixel limit|Input image exceeds/i.test(error.message)) {
          throw new UnprocessableEntityException(
            'The image is too large in dimensions (at most 40 megapixels)',
          );
        }
        throw new UnprocessableEntityException('The image could not be read; it may be damaged');
      }
      const key = `${folder}/${hash}-${width}.webp`;
      try {
        urls[width] = await this.storage.put(key, webp, 'image/webp');
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
    const sideways = (metadata.orientation ?? 1) >= 5;
    const fullWidth = sideways ? metadata.height : metadata.width;
    const fullHeight = sideways ? metadata.width : metadata.height;
    const width = Math.min(defaultWidth, fullWidth);
    return {
      url: urls[defaultWidth] ?? urls[widths[0]!]!,
      urls,
      keys,
      width,
      height: Math.round((fullHeight * width) / fullWidth),
    };
  }

  async remove(keys: string[]): Promise<void> {
    if (keys.length) await this.storage.delete(keys);
  }
}
