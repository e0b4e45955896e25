import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { trancheLabel } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrganisationsService } from '../organisations/organisations.service';
import { trancheNotePdf } from './tranche-pdf';
import { trancheOf } from './tranche-rules';
import { TranchesRepository } from './tranches.repository';
import { isShop, TranchesService } from './tranches.service';

/**
 * A tranche's delivery note as a PDF: for the shop (each print is in the trail, as an order's
 * documents are) and the order's organisation's people (any other caller: 404).
 */
@Injectable()
export class TrancheDocuments {
  constructor(
    private readonly tranches: TranchesService,
    private readonly repository: TranchesRepository,
    private readonly orgs: OrganisationsService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async deliveryNote(
    actor: Principal,
    orderId: string,
    number: number,
  ): Promise<{ filename: string; pdf: Buffer }> {
    const order = await this.tranches.readable(actor, orderId);
    const doc = await this.repository.find(order._id);
    const tranche = trancheOf(doc, order.purchaseNumber, number);
    if (tranche.state === 'Cancelled')
      throw new ConflictException({
        message: `Tranche ${trancheLabel(number)} of order ${order.purchaseNumber} was cancelled: it has no delivery note`,
        code: 'ILLEGAL_TRANSITION',
      });
    const [org, batches] = await Promise.all([
      this.orgs.findRecord(doc!.organisationId),
      this.tranches.batchesOf(doc!, tranche.lines),
    ]);
    const pdf = await trancheNotePdf({
      doc: doc!,
      tranche,
      organisation: org?.name ?? '',
      readyOn: new Map([...batches].map(([id, b]) => [id, b.readyOn])),
      shop: {
        phone: this.config.shopContacts.phone,
        website: this.config.storefrontUrl.replace(/^https?:\/\//, ''),
      },
    });
    const filename = `delivery-note-${order.purchaseNumber}-${trancheLabel(number)}.pdf`;
    if (isShop(actor))
      await this.audit.recordExport(
        actor,
        'order.document',
        filename,
        `the delivery note of tranche ${trancheLabel(number)} of order ${order.purchaseNumber} as PDF`,
      );
    return { filename, pdf };
  }
}
