import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrganisationsService } from '../organisations/organisations.service';
import { QuotationAccess } from './quotation-access';
import { quotationPdf } from './quotation-pdf';

/** A version sent, as its PDF: for the shop and the organisation's people (else 404). */
@Injectable()
export class QuotationDocuments {
  constructor(
    private readonly access: QuotationAccess,
    private readonly orgs: OrganisationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async pdf(
    actor: Principal,
    id: string,
    version: number,
  ): Promise<{ filename: string; pdf: Buffer }> {
    const { q } = await this.access.load(actor, id);
    const v = q.versions.find((x) => x.version === version);
    if (!v) throw new NotFoundException(`Quotation ${q.number} has no version ${version}`);
    const org = await this.orgs.findRecord(q.organisationId);
    const pdf = await quotationPdf({
      number: q.number,
      version: v,
      organisation: { name: org?.name ?? q.organisationName, kraPin: org?.kraPin ?? '' },
      shop: {
        phone: this.config.shopContacts.phone,
        email: this.config.shopContacts.email,
        website: this.config.storefrontUrl.replace(/^https?:\/\//, ''),
        kraPin: this.config.shopKraPin,
      },
    });
    return { filename: `${q.number}-v${v.version}.pdf`, pdf };
  }
}
