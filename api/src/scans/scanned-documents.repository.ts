import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { ScannedDocument } from './schemas/scanned-document.schema';

/** What a scan belongs to: an order (its LPO, its tranches' signed delivery notes). */
export interface ScanOwner {
  kind: 'order';
  id: string;
}

/** A scan as kept, without its bytes. */
export interface ScanRecord {
  ownerKind: string;
  ownerId: string;
  kind: string;
  organisationId: string | null;
  contentType: string;
  size: number;
  sha256: string;
  sourceSha256: string;
  uploadedById: string | null;
  uploadedByRole: string;
  uploadedAt: Date;
}

/** Every field but the bytes: what lists, views and exports read. */
const WITHOUT_BYTES = { bytes: 0, _id: 0 } as const;

function recordOf(doc: ScannedDocument): ScanRecord {
  return {
    ownerKind: doc.ownerKind,
    ownerId: doc.ownerId,
    kind: doc.kind,
    organisationId: doc.organisationId ?? null,
    contentType: doc.contentType,
    size: doc.size,
    sha256: doc.sha256,
    sourceSha256: doc.sourceSha256,
    uploadedById: doc.uploadedById ?? null,
    uploadedByRole: doc.uploadedByRole,
    uploadedAt: doc.uploadedAt,
  };
}

/** The driver answers a BSON Binary where mongoose would cast a Buffer. */
function bufferOf(bytes: unknown): Buffer {
  if (Buffer.isBuffer(bytes)) return bytes;
  const binary = bytes as { buffer: Uint8Array; position?: number };
  const data = binary.buffer.subarray(0, binary.position ?? binary.buffer.length);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** How often a put meets another one inserting the owner's first scan before it gives up. */
const PUT_ATTEMPTS = 3;

/** The only code touching `scanned_documents`; each method one operation on it. */
@Injectable()
export class ScannedDocumentsRepository {
  constructor(@InjectModel(ScannedDocument.name) private readonly scans: Model<ScannedDocument>) {}

  private key(owner: ScanOwner, kind: string) {
    return { ownerKind: owner.kind, ownerId: owner.id, kind };
  }

  async find(owner: ScanOwner, kind: string): Promise<ScanRecord | null> {
    const doc = await this.scans
      .findOne(this.key(owner, kind))
      .select(WITHOUT_BYTES)
      .lean<ScannedDocument>();
    return doc ? recordOf(doc) : null;
  }

  async findWithBytes(
    owner: ScanOwner,
    kind: string,
  ): Promise<(ScanRecord & { bytes: Buffer }) | null> {
    const doc = await this.scans.findOne(this.key(owner, kind)).lean<ScannedDocument>();
    return doc ? { ...recordOf(doc), bytes: bufferOf(doc.bytes) } : null;
  }

  /** The scans of this kind these owners have, without their bytes. */
  async ofOwners(ownerKind: ScanOwner['kind'], ids: string[], kind: string): Promise<ScanRecord[]> {
    if (!ids.length) return [];
    const docs = await this.scans
      .find({ ownerKind, ownerId: { $in: ids }, kind })
      .select(WITHOUT_BYTES)
      .lean<ScannedDocument[]>();
    return docs.map(recordOf);
  }

  /**
   * Keeps the scan as its owner's of its kind, replacing the one before in place (its bytes go with
   * it), unless that one is the same file (`sourceSha256`): then nothing is written and `same` is
   * answered. One conditional upsert: of the same file sent several times at once, one writes.
   */
  async put(
    scan: ScanRecord & { bytes: Buffer },
  ): Promise<
    { written: true; replaced: ScanRecord | null } | { written: false; same: ScanRecord }
  > {
    const key = { ownerKind: scan.ownerKind, ownerId: scan.ownerId, kind: scan.kind };
    for (let attempt = 1; ; attempt++) {
      try {
        const before = await this.scans
          .findOneAndUpdate(
            { ...key, sourceSha256: { $ne: scan.sourceSha256 } },
            { $set: scan },
            { upsert: true, new: false, projection: WITHOUT_BYTES },
          )
          .lean<ScannedDocument>();
        return { written: true, replaced: before ? recordOf(before) : null };
      } catch (error) {
        // The filter missed an existing scan: it is this file already, or another one was
        // inserted between (then it is replaced on the next try).
        if (!isDuplicateKeyError(error) || attempt >= PUT_ATTEMPTS) throw error;
        const now = await this.scans.findOne(key).select(WITHOUT_BYTES).lean<ScannedDocument>();
        if (now?.sourceSha256 === scan.sourceSha256) return { written: false, same: recordOf(now) };
      }
    }
  }

  /**
   * The scans of these owners whose kind is `kind:<part>` (one per part: a tranche's signed note,
   * `signedNote:T2`), without their bytes.
   */
  async ofOwnersParts(
    ownerKind: ScanOwner['kind'],
    ids: string[],
    kind: string,
  ): Promise<ScanRecord[]> {
    if (!ids.length) return [];
    const docs = await this.scans
      .find({ ownerKind, ownerId: { $in: ids }, kind: { $regex: `^${kind}:` } })
      .select(WITHOUT_BYTES)
      .lean<ScannedDocument[]>();
    return docs.map(recordOf);
  }

  /** Removes every scan of this owner, of every kind and part (its order deleted). */
  async removeOwner(owner: ScanOwner): Promise<void> {
    await this.scans.deleteMany({ ownerKind: owner.kind, ownerId: owner.id });
  }

  /** The scans this account uploaded, without their bytes. */
  async ofUploader(accountId: string): Promise<ScanRecord[]> {
    const docs = await this.scans
      .find({ uploadedById: accountId })
      .select(WITHOUT_BYTES)
      .sort({ uploadedAt: 1 })
      .lean<ScannedDocument[]>();
    return docs.map(recordOf);
  }

  /** The account's uploads become nobody's (the scans stay: they are the organisation's). */
  async forgetUploader(accountId: string): Promise<void> {
    await this.scans.updateMany({ uploadedById: accountId }, { $set: { uploadedById: null } });
  }
}
