import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { trancheLabel } from '@spc/shared-contracts';
import type { OrderTranchesRecord, TrancheRecord } from './tranche-record';
import { TranchesRepository } from './tranches.repository';

/** How often an erasure's write is tried again when a change of the tranches came first. */
const ATTEMPTS = 8;

/**
 * The tranches of orders from quotations: each names its site's contact (a name and a mobile
 * number) and who signed its delivery note. Exported: the tranches of the person's orders.
 * Erased: on the person's orders, the contact and signer when they are the person (by their
 * names and phones) and their names in the site's name and short reasons; anywhere, a contact
 * whose number the person proved theirs. The tranches themselves stay (what went where).
 */
@Injectable()
@OwnsPersonalData()
export class TranchesPersonalData implements PersonalDataOwner {
  readonly collections = {
    order_tranches:
      "each tranche of an order from a quotation: its site's contact (name, mobile number) and who signed its delivery note",
  };

  constructor(private readonly repository: TranchesRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const docs = await this.repository.forOrders(subject.orderIds);
    return {
      tranches: docs.flatMap((doc) =>
        doc.tranches.map((t) => ({
          purchaseNumber: doc.purchaseNumber,
          tranche: trancheLabel(t.number),
          state: t.state,
          date: t.date,
          site: t.site,
          signedBy: t.signedBy,
          signedAt: t.signedAt,
        })),
      ),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    const phones = new Set(subject.phones);
    const proven = new Set(subject.proven.phones);
    const names = new Set(subject.names.map((n) => n.trim().toLowerCase()).filter(Boolean));
    const isThem = (name: string | null) => !!name && names.has(name.trim().toLowerCase());
    const theirs = new Set(subject.orderIds);
    const erased = (doc: OrderTranchesRecord, t: TrancheRecord): TrancheRecord => {
      const own = theirs.has(doc._id);
      const contact = t.site.contact;
      const contactIsThem =
        proven.has(contact.phone) || (own && (phones.has(contact.phone) || isThem(contact.name)));
      if (!own && !contactIsThem) return t;
      return {
        ...t,
        site: {
          ...t.site,
          name: own ? scrubText(t.site.name, subject) : t.site.name,
          contact: contactIsThem ? { name: ANONYMOUS_NAME, phone: '' } : contact,
        },
        signedBy: own && isThem(t.signedBy) ? ANONYMOUS_NAME : t.signedBy,
        lines: t.lines.map((l) => ({
          ...l,
          shortReason: own && l.shortReason ? scrubText(l.shortReason, subject) : l.shortReason,
        })),
      };
    };
    const docs = [
      ...(await this.repository.forOrders(subject.orderIds)),
      ...(await this.repository.withContactPhones([...proven])),
    ];
    for (const id of new Set(docs.map((d) => d._id))) {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const doc = await this.repository.find(id);
        if (!doc) break;
        const tranches = doc.tranches.map((t) => erased(doc, t));
        if (JSON.stringify(tranches) === JSON.stringify(doc.tranches)) break;
        if (await this.repository.replace(id, doc.rev, { ...doc, tranches })) break;
      }
    }
  }
}
