import { Injectable } from '@nestjs/common';
import { SCAN_KINDS, type ScanKind } from '@spc/shared-contracts';
import {
  OwnsPersonalData,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { ScannedDocumentsRepository } from './scanned-documents.repository';
import { scanKindOf } from './scanned-documents.service';

/**
 * A scanned paper is its organisation's record (an LPO, a tranche's signed delivery note: each may
 * show the names and signatures of its officers, as the paper the shop files does), read by the
 * organisation's people and the shop; the person in it is who uploaded it. Exported to that person: what they attached and when, not the
 * paper (it is the organisation's, and may name others). Erased: the upload becomes nobody's; the
 * paper stays with its order.
 */
@Injectable()
@OwnsPersonalData()
export class ScansPersonalData implements PersonalDataOwner {
  readonly collections = {
    scanned_documents:
      "organisations' scanned papers kept with their orders (an LPO, each tranche's signed delivery note: either may show officers' names and signatures), and the account that uploaded each",
  };

  constructor(private readonly scans: ScannedDocumentsRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.accountId) return { scannedDocuments: [] };
    const mine = await this.scans.ofUploader(subject.accountId);
    return {
      scannedDocuments: mine.map((s) => ({
        kind: SCAN_KINDS[scanKindOf(s.kind) as ScanKind] ?? s.kind,
        contentType: s.contentType,
        size: s.size,
        uploadedAt: s.uploadedAt,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    if (subject.accountId) await this.scans.forgetUploader(subject.accountId);
  }
}
