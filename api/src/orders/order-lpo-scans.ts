import {
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  LPO_SCAN_MESSAGES as LM,
  lpoScanFilename,
  scanDescription,
  type ScanAbout,
  type ScanContentType,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { OnDomainEvent } from '../common/events/domain-events';
import type { Principal } from '../common/principal';
import { OrganisationsService } from '../organisations/organisations.service';
import { scanAbout, ScannedDocuments, type ScanOwner } from '../scans/scanned-documents.service';
import type { OrderEvent } from './order-events';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

/** The same words as the order's own 404: an order the caller may not see is not there for them. */
const NO_ORDER = 'No order with this id';

const ownerOf = (orderId: string): ScanOwner => ({ kind: 'order', id: orderId });

export interface LpoScanFile {
  bytes: Buffer;
  contentType: ScanContentType;
  filename: string;
}

/**
 * The scanned LPO of an order made from a quotation (issue 42): the paper the organisation's
 * approver signed, kept with the order (ScannedDocuments). Read by the organisation's people and
 * the shop; attached (or replaced) by its approvers and the shop. Anyone else, and any order they
 * could not see, gets the order's 404.
 */
@Injectable()
export class OrderLpoScans {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly orgs: OrganisationsService,
    private readonly scans: ScannedDocuments,
    private readonly audit: AuditService,
  ) {}

  /** Attaches the file as the order's scanned LPO, replacing any before; the same file again is a no-op. */
  async attach(actor: Principal, orderId: string, bytes: Buffer): Promise<ScanAbout> {
    const { order, quotation } = await this.load(actor, orderId, 'attach');
    const kept = await this.scans.keep({
      owner: ownerOf(order._id),
      kind: 'lpo',
      organisationId: quotation.organisationId,
      bytes,
      by: actor,
    });
    // Deleted while it was kept (its listener may have run before this write): no orphan stays.
    if (kept.written && !(await this.orders.findById(order._id))) {
      await this.scans.removeOwner(ownerOf(order._id));
      throw new NotFoundException(NO_ORDER);
    }
    if (kept.written)
      await this.audit.record(
        actor,
        'order.lpo-scan',
        `${actor.fullName} ${kept.replaced ? 'replaced' : 'attached'} the scanned LPO of order ${order.purchaseNumber} (LPO ${quotation.lpoNumber}): ${scanDescription(scanAbout(kept.scan))}`,
        { type: 'order', id: order._id, label: order.purchaseNumber },
      );
    return scanAbout(kept.scan);
  }

  /** The order's scanned LPO, with the name it is served under; 404 in words when it has none. */
  async read(actor: Principal, orderId: string): Promise<LpoScanFile> {
    const { order, quotation } = await this.load(actor, orderId, 'read');
    const scan = await this.scans.read(ownerOf(order._id), 'lpo');
    if (!scan) throw new NotFoundException(LM.none);
    const contentType = scan.contentType as ScanContentType;
    const filename = lpoScanFilename(quotation.lpoNumber, contentType);
    // The shop takes the organisation's paper out: the trail says who took which.
    if (actor.role !== 'customer')
      await this.audit.recordExport(
        actor,
        'order.document',
        filename,
        `the scanned LPO of order ${order.purchaseNumber}`,
      );
    return { bytes: scan.bytes, contentType, filename };
  }

  /** What the views say of these orders' scanned LPOs, by order id (orders without one absent). */
  aboutOrders(orderIds: string[]): Promise<Map<string, ScanAbout>> {
    return this.scans.about('order', orderIds, 'lpo');
  }

  /** What the view of a quotation says of its order's scanned LPO (null: none, or no order yet). */
  async aboutOrder(orderId: string | null | undefined): Promise<ScanAbout | null> {
    if (!orderId) return null;
    return (await this.aboutOrders([orderId])).get(orderId) ?? null;
  }

  /** A deleted order takes its scans along. */
  @OnDomainEvent('order.deleted')
  async onDeleted(event: OrderEvent): Promise<void> {
    await this.scans.removeOwner(ownerOf(event.order._id));
  }

  /**
   * The order, if the caller may read (or attach) its scanned LPO: staff and admin any order from
   * a quotation; a person of its organisation (to attach: an approver) theirs. A customer's own
   * ordinary order is refused in words; any other order they get 404 for, as a missing one.
   */
  private async load(
    actor: Principal,
    orderId: string,
    want: 'read' | 'attach',
  ): Promise<{ order: OrderRecord; quotation: NonNullable<OrderRecord['quotation']> }> {
    const order = await this.orders.findById(orderId);
    if (!order) throw new NotFoundException(NO_ORDER);
    const notFromQuotation = () =>
      new ConflictException({ message: LM.notFromQuotation, code: 'CONFLICT' });
    if (actor.role === 'customer') {
      const member = order.quotation ? await this.orgs.membership(actor.id) : null;
      if (!member || member.organisation._id !== order.quotation?.organisationId) {
        if (!order.quotation && order.placedBy === actor.id) throw notFromQuotation();
        throw new NotFoundException(NO_ORDER);
      }
      if (want === 'attach' && member.role !== 'approver')
        throw new ForbiddenException(LM.notApprover);
    }
    if (!order.quotation) throw notFromQuotation();
    return { order, quotation: order.quotation };
  }
}
