import { sniffImage } from '../storage/image.service';

/**
 * What an uploaded paper is, by its bytes alone (never its name or declared type): a PDF, a photo
 * (JPEG, PNG or WebP, to be decoded and re-encoded), or neither.
 */
export function scanFileKind(bytes: Buffer): 'pdf' | 'photo' | undefined {
  if (isPdf(bytes)) return 'pdf';
  if (sniffImage(bytes)) return 'photo';
  return undefined;
}

/** How far from its end a PDF's `%%EOF` may be (writers add a line end or a few bytes after it). */
const EOF_WITHIN = 2048;

/**
 * A PDF starts with its header (`%PDF-1.x` or `%PDF-2.x`) at its first byte and has `%%EOF` in its
 * last 2 KB. Readers accept a header anywhere in the first kilobyte, but bytes before it are how an
 * HTML page or a script passes for a PDF (a polyglot), and a scanner writes none; a file without
 * its end was cut short on the way.
 */
export function isPdf(bytes: Buffer): boolean {
  if (!/^%PDF-[12]\.\d/.test(bytes.toString('latin1', 0, 8))) return false;
  return bytes.subarray(Math.max(0, bytes.length - EOF_WITHIN)).includes('%%EOF');
}
