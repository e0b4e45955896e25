import { createHash } from 'node:crypto';
import {
  BadRequestException,
  Injectable,
  PayloadTooLargeException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import {
  LIMITS,
  SCAN_KINDS,
  scanMessages,
  type ScanAbout,
  type ScanContentType,
  type ScanKind,
} from '@spc/shared-contracts';
import type { Principal } from '../common/principal';
import { ImageService } from '../storage/image.service';
import { scanFileKind } from './scan-content';
import {
  ScannedDocumentsRepository,
  type ScanOwner,
  type ScanRecord,
} from './scanned-documents.repository';

export type { ScanOwner, ScanRecord } from './scanned-documents.repository';

/**
 * A photo's longer side as kept: an A4 page at 300 dpi, enough to read any stamp, and a JPEG of a
 * few hundred kilobytes to a few megabytes.
 */
export const SCAN_PHOTO_MAX_SIDE = 3508;
/** A re-encoded photo larger than this (noise, not paper) is refused rather than kept. */
const SCAN_PHOTO_MAX_BYTES = 2 * LIMITS.imageMaxBytes;

/**
 * The kind a scan is kept under: its kind alone when its owner has one of it (an order's LPO), or
 * with the part it is of when it has several (a tranche's signed note: `signedNote:T2`).
 */
export function scanKey(kind: ScanKind, part?: string): string {
  return part ? `${kind}:${part}` : kind;
}

/** The kind of a kept scan, from the key it is kept under. */
export function scanKindOf(key: string): ScanKind | undefined {
  const kind = key.split(':')[0]!;
  return Object.prototype.hasOwnProperty.call(SCAN_KINDS, kind) ? (kind as ScanKind) : undefined;
}

export interface KeepScan {
  owner: ScanOwner;
  kind: ScanKind;
  /** Which of the owner's papers of this kind it is, when it has several (a tranche: `T2`). */
  part?: string;
  /** The organisation whose paper it is. */
  organisationId: string | null;
  bytes: Buffer;
  by: Principal;
}

/** What keeping a scan did: `written` false when it was the same file as the one kept already. */
export interface KeptScan {
  scan: ScanRecord;
  written: boolean;
  /** The scan it replaced (its bytes are gone), when it replaced one. */
  replaced: ScanRecord | null;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The view's word on a scan: its type, size and time, never its bytes or its uploader. */
export function scanAbout(scan: ScanRecord): ScanAbout {
  return {
    contentType: scan.contentType as ScanContentType,
    size: scan.size,
    uploadedAt: scan.uploadedAt.toISOString(),
  };
}

/**
 * Scanned paper documents (an order's LPO, each of its tranches' signed delivery note), private to the
 * people who may read their owner: kept in the database (any API instance serves them, no public
 * URL reaches them), checked by their bytes, a photo re-encoded without its metadata. Who may
 * keep or read which is the owner's module's to say; this one keeps the papers.
 */
@Injectable()
export class ScannedDocuments {
  constructor(
    private readonly scans: ScannedDocumentsRepository,
    private readonly images: ImageService,
  ) {}

  /**
   * Keeps the file as the owner's scan of this kind, replacing the one before. A PDF is kept as
   * sent; a photo (JPEG, PNG or WebP) decoded and kept as an upright JPEG without its metadata;
   * anything else 415. The same file again writes nothing and answers the scan kept.
   */
  async keep({ owner, kind, part, organisationId, bytes, by }: KeepScan): Promise<KeptScan> {
    const words = scanMessages(SCAN_KINDS[kind]);
    if (!bytes.length) throw new BadRequestException(words.chooseFile);
    if (bytes.length > LIMITS.imageMaxBytes) throw new PayloadTooLargeException(words.tooLarge);
    const type = scanFileKind(bytes);
    if (!type) throw new UnsupportedMediaTypeException(words.unsupported);
    const sourceSha256 = sha256(bytes);
    // Sent again (a retry, a double click): known by its hash before any decoding.
    const key = scanKey(kind, part);
    const before = await this.scans.find(owner, key);
    if (before?.sourceSha256 === sourceSha256)
      return { scan: before, written: false, replaced: null };
    const stored =
      type === 'pdf' ? bytes : await this.images.uprightJpeg(bytes, SCAN_PHOTO_MAX_SIDE);
    if (stored.length > SCAN_PHOTO_MAX_BYTES)
      throw new UnprocessableEntityException(
        'The photo is too detailed to keep; take it again in good light, or scan it as a PDF',
      );
    const scan: ScanRecord = {
      ownerKind: owner.kind,
      ownerId: owner.id,
      kind: key,
      organisationId,
      contentType: type === 'pdf' ? 'application/pdf' : 'image/jpeg',
      size: stored.length,
      sha256: sha256(stored),
      sourceSha256,
      uploadedById: by.id,
      uploadedByRole: by.role,
      uploadedAt: new Date(),
    };
    const put = await this.scans.put({ ...scan, bytes: stored });
    return put.written
      ? { scan, written: true, replaced: put.replaced }
      : { scan: put.same, written: false, replaced: null };
  }

  /** The owner's scan of this kind (and part) with its bytes, or null. */
  read(
    owner: ScanOwner,
    kind: ScanKind,
    part?: string,
  ): Promise<(ScanRecord & { bytes: Buffer }) | null> {
    return this.scans.findWithBytes(owner, scanKey(kind, part));
  }

  /** Which of these owners have a scan of this kind, and what it is (no bytes read). */
  async about(
    ownerKind: ScanOwner['kind'],
    ids: string[],
    kind: ScanKind,
  ): Promise<Map<string, ScanAbout>> {
    const found = await this.scans.ofOwners(ownerKind, [...new Set(ids)], kind);
    return new Map(found.map((s) => [s.ownerId, scanAbout(s)]));
  }

  /**
   * Which parts of these owners have a scan of this kind, and what each is (no bytes read): by
   * owner id, then by part.
   */
  async aboutParts(
    ownerKind: ScanOwner['kind'],
    ids: string[],
    kind: ScanKind,
  ): Promise<Map<string, Map<string, ScanAbout>>> {
    const found = await this.scans.ofOwnersParts(ownerKind, [...new Set(ids)], kind);
    const byOwner = new Map<string, Map<string, ScanAbout>>();
    for (const s of found) {
      const parts = byOwner.get(s.ownerId) ?? new Map<string, ScanAbout>();
      parts.set(s.kind.slice(kind.length + 1), scanAbout(s));
      byOwner.set(s.ownerId, parts);
    }
    return byOwner;
  }

  /** Removes the owner's scans, of every kind and part (the owner is deleted). */
  removeOwner(owner: ScanOwner): Promise<void> {
    return this.scans.removeOwner(owner);
  }
}
