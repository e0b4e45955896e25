/**
 * Scanned paper documents kept with an order (private: never among the public uploads): the LPO an
 * order from a quotation was accepted with (issue 42), and each tranche's signed delivery note
 * (issue 43).
 * The API keeps a PDF as sent and a photo re-encoded as JPEG (upright, without its metadata).
 */
import { LIMITS } from './constants';

/** What the API serves a scan as: a PDF as sent, every photo as JPEG. */
export const SCAN_CONTENT_TYPES = ['application/pdf', 'image/jpeg'] as const;
export type ScanContentType = (typeof SCAN_CONTENT_TYPES)[number];

/** The papers kept, in words: an order's LPO, and the signed delivery note of each of its tranches. */
export const SCAN_KINDS = { lpo: 'scanned LPO', signedNote: 'signed delivery note' } as const;
export type ScanKind = keyof typeof SCAN_KINDS;

/** The file picker's `accept`: a scanner's PDF or a phone's photo (checked again by content). */
export const SCAN_ACCEPT = 'application/pdf,image/*';

/** The multipart field the file goes in. */
export const SCAN_FIELD = 'file';

/** That an order has a scan, without its bytes: what the order views and the quotation carry. */
export interface ScanAbout {
  contentType: ScanContentType;
  /** Bytes, as stored (a photo after re-encoding). */
  size: number;
  uploadedAt: string;
}

const MB = LIMITS.imageMaxBytes / (1024 * 1024);

/** What the API answers about a scan of this kind (its words: "scanned LPO"). */
export function scanMessages(what: string) {
  return {
    unsupported: `A ${what} must be a PDF or a photo (JPEG, PNG or WebP)`,
    tooLarge: `A ${what} must be at most ${MB} MB`,
    chooseFile: `Choose the ${what} to upload: a PDF or a photo`,
  };
}

/** A scan in a few words: "PDF, 212 KB", "Photo, 1.4 MB". */
export function scanDescription(scan: Pick<ScanAbout, 'contentType' | 'size'>): string {
  const size =
    scan.size >= 1024 * 1024
      ? `${(scan.size / (1024 * 1024)).toFixed(1)} MB`
      : `${Math.max(1, Math.round(scan.size / 1024))} KB`;
  return `${scan.contentType === 'application/pdf' ? 'PDF' : 'Photo'}, ${size}`;
}

/**
 * What the apps say of a file picked before sending it (null: send it): too large, or plainly
 * neither a PDF nor a picture. The API checks the bytes again; a browser's type is only a hint.
 */
export function scanFileProblem(
  file: { size: number; type: string },
  messages: { tooLarge: string; unsupported: string; chooseFile: string },
): string | null {
  if (file.size === 0) return messages.chooseFile;
  if (file.size > LIMITS.imageMaxBytes) return messages.tooLarge;
  if (file.type && file.type !== 'application/pdf' && !file.type.startsWith('image/'))
    return messages.unsupported;
  return null;
}

/** The scanned LPO's words, the API's and both apps'. */
export const LPO_SCAN_MESSAGES = {
  ...scanMessages(SCAN_KINDS.lpo),
  none: 'This order has no scanned LPO',
  notFromQuotation: 'This order was not made from a quotation, so it has no LPO to attach',
  notApprover: 'Only an approver of the organisation, or the shop, can attach its scanned LPO',
  attached: 'Scanned LPO attached',
  /** Accepted, then the upload failed: the order stands. */
  notAttached: 'The order was made, but the scanned LPO was not attached: attach it again.',
} as const;

/** Labels of the apps' LPO scan pieces. */
export const LPO_SCAN_TEXTS = {
  field: 'Scanned LPO (PDF or photo, optional)',
  title: 'Scanned LPO',
  download: 'Download the scanned LPO',
  attach: 'Attach the scanned LPO',
  replace: 'Replace the scanned LPO',
  none: 'No scanned LPO attached',
  sending: 'Attaching the scanned LPO…',
} as const;

/** The file name a scan is served and saved under: `LPO-<number>.pdf`, letters, digits and dashes only. */
export function lpoScanFilename(lpoNumber: string, contentType: ScanContentType): string {
  const plain =
    lpoNumber
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'scan';
  return `LPO-${plain}.${contentType === 'application/pdf' ? 'pdf' : 'jpg'}`;
}

/** The signed delivery note of a tranche (issue 43): its words, the API's and both apps'. */
export const SIGNED_NOTE_MESSAGES = {
  ...scanMessages(SCAN_KINDS.signedNote),
  none: (purchaseNumber: string, label: string) =>
    `Tranche ${label} of order ${purchaseNumber} has no signed delivery note attached`,
  attached: 'Signed delivery note attached',
} as const;

/** Labels of the apps' signed note pieces. */
export const SIGNED_NOTE_TEXTS = {
  field: 'Photo or scan of the signed note (PDF or photo, optional)',
  title: 'Signed delivery note',
  download: 'View the signed delivery note',
  attach: 'Attach the signed note',
  replace: 'Replace the signed note',
  none: 'No signed note attached',
  sending: 'Attaching the signed note…',
} as const;

/**
 * The file name a tranche's signed note is served and saved under:
 * `<purchase number>-T<n>-signed.pdf` (or `.jpg`), letters, digits and dashes only.
 */
export function signedNoteFilename(
  purchaseNumber: string,
  number: number,
  contentType: ScanContentType,
): string {
  const plain = purchaseNumber.replace(/[^A-Za-z0-9]+/g, '').slice(0, 40) || 'order';
  return `${plain}-T${number}-signed.${contentType === 'application/pdf' ? 'pdf' : 'jpg'}`;
}
