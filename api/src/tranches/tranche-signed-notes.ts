import { Injectable, NotFoundException } from '@nestjs/common';
import {
  SIGNED_NOTE_MESSAGES as SM,
  scanDescription,
  signedNoteFilename,
  trancheLabel,
  type ScanContentType,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { TrancheOrders } from '../orders/tranche-orders';
import { scanAbout, ScannedDocuments, type ScanOwner } from '../scans/scanned-documents.service';
import type { TrancheDto } from './dto/tranche-view.dto';
import { trancheName } from './tranche-record';
import { assertTrancheStep, trancheOf } from './tranche-rules';
import { trancheView } from './tranche-views';
import { TranchesRepository } from './tranches.repository';
import { isShop, noOrder, TranchesService } from './tranches.service';

export interface SignedNoteFile {
  bytes: Buffer;
  contentType: ScanContentType;
  filename: string;
}

const ownerOf = (orderId: string): ScanOwner => ({ kind: 'order', id: orderId });

/**
 * The photo or scan of a tranche's signed delivery note (issue 43), kept with its order by the
 * scanned-documents module as the order's `signedNote` of the tranche (`signedNote:T2`): one per
 * tranche, a new one replacing the old. Attached by the shop (staff, admin) once the load left;
 * read by the shop and the order's organisation's people (anyone else: the order's 404). A
 * deleted order takes it along with its other scans (OrderLpoScans removes the order's scans).
 */
@Injectable()
export class TrancheSignedNotes {
  constructor(
    private readonly tranches: TranchesService,
    private readonly repository: TranchesRepository,
    private readonly orders: TrancheOrders,
    private readonly scans: ScannedDocuments,
    private readonly audit: AuditService,
  ) {}

  /**
   * Keeps the file as the tranche's signed note (a tranche that left: 409 otherwise), replacing
   * any before; the same file again writes nothing and is not in the trail again.
   */
  async attach(
    actor: Principal,
    orderId: string,
    number: number,
    bytes: Buffer,
  ): Promise<TrancheDto> {
    const order = await this.tranches.shopOrder(orderId);
    const doc = await this.repository.find(order._id);
    const tranche = trancheOf(doc, order.purchaseNumber, number);
    assertTrancheStep('attachSignedNote', tranche, order.purchaseNumber);
    const label = trancheLabel(number);
    const kept = await this.scans.keep({
      owner: ownerOf(order._id),
      kind: 'signedNote',
      part: label,
      organisationId: doc!.organisationId,
      bytes,
      by: actor,
    });
    // Deleted while it was kept (its listener may have run before this write): no orphan stays.
    if (kept.written && !(await this.orders.find(order._id))) {
      await this.scans.removeOwner(ownerOf(order._id));
      throw noOrder();
    }
    if (kept.written)
      await this.audit.record(
        actor,
        'tranche.signed-note',
        `${actor.fullName} ${kept.replaced ? 'replaced' : 'attached'} the signed delivery note of ${trancheName(order, number)}: ${scanDescription(scanAbout(kept.scan))}`,
        { type: 'order', id: order._id, label: order.purchaseNumber },
      );
    return trancheView(doc!, tranche, new Map([[label, scanAbout(kept.scan)]]));
  }

  /** The tranche's signed note as kept, with the name it is served under (404 in words: none). */
  async read(actor: Principal, orderId: string, number: number): Promise<SignedNoteFile> {
    const order = await this.tranches.readable(actor, orderId);
    trancheOf(await this.repository.find(order._id), order.purchaseNumber, number);
    const label = trancheLabel(number);
    const scan = await this.scans.read(ownerOf(order._id), 'signedNote', label);
    if (!scan)
      throw new NotFoundException({
        message: SM.none(order.purchaseNumber, label),
        code: 'NOT_FOUND',
      });
    const contentType = scan.contentType as ScanContentType;
    const filename = signedNoteFilename(order.purchaseNumber, number, contentType);
    // The shop takes the organisation's paper out: the trail says who took which.
    if (isShop(actor))
      await this.audit.recordExport(
        actor,
        'order.document',
        filename,
        `the signed delivery note of ${trancheName(order, number)}`,
      );
    return { bytes: scan.bytes, contentType, filename };
  }
}
