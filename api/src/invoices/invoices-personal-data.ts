import { Injectable } from '@nestjs/common';
import { trancheLabel } from '@spc/shared-contracts';
import {
  OwnsPersonalData,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { InvoicesRepository } from './invoices.repository';

/**
 * Invoices name their organisation (a body, not a person) and the clerks who issued and settled
 * them; a tranche's invoice also copies its site's name, which may name a person (a farm named
 * after its owner). Exported: the invoices of the person's orders. Erased: their names in those
 * invoices' site names. The invoices themselves stay (the books).
 */
@Injectable()
@OwnsPersonalData()
export class InvoicesPersonalData implements PersonalDataOwner {
  readonly collections = {
    invoices: "the name of the site a tranche's invoice bills (copied from the tranche)",
  };

  constructor(private readonly invoices: InvoicesRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const invoices = await this.invoices.forOrders(subject.orderIds);
    return {
      invoices: invoices.map((i) => ({
        number: i.number,
        purchaseNumber: i.purchaseNumber,
        tranche: i.tranche === null ? null : trancheLabel(i.tranche),
        site: i.site,
        total: i.total,
        issuedAt: i.issuedAt,
        dueDate: i.dueDate,
        state: i.state,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    for (const i of await this.invoices.forOrders(subject.orderIds)) {
      if (!i.site) continue;
      const name = scrubText(i.site.name, subject);
      if (name !== i.site.name) await this.invoices.renameSite(i._id, name);
    }
  }
}
