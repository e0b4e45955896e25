import { Injectable } from '@nestjs/common';
import {
  OwnsPersonalData,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import {
  ETIMS_COUNTERS_COLLECTION,
  ETIMS_DOCUMENTS_COLLECTION,
  EtimsDocumentsRepository,
} from './etims-documents.repository';
import { ETIMS_DEVICES_COLLECTION } from './etims-devices.store';
import { ETIMS_ITEMS_COLLECTION } from './etims-items.repository';

/**
 * eTIMS documents name their buyer when one gave a KRA PIN: an organisation (a body, not a person)
 * or a shopper who asked for a receipt in their name. Exported: the documents of the person's
 * orders (number, KRA's signature, the QR link). Erased: a person buyer's PIN and name leave the
 * document, and so do a registrar's id and name (a clerk's credit notes) where KRA never had the
 * document; the document, its sums and KRA's signature stay (a tax record: KRA keeps its copy).
 */
@Injectable()
@OwnsPersonalData()
export class EtimsPersonalData implements PersonalDataOwner {
  readonly collections = {
    [ETIMS_DOCUMENTS_COLLECTION]:
      "the buyer's KRA PIN and name on a document signed in their name (a shopper who gave a PIN); the registrar's id and name on the documents a clerk registered",
    [ETIMS_COUNTERS_COLLECTION]: '',
    [ETIMS_DEVICES_COLLECTION]: '',
    // Products' sale units and what KRA was told of them: no one's data.
    [ETIMS_ITEMS_COLLECTION]: '',
  };

  constructor(private readonly documents: EtimsDocumentsRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const docs = await this.documents.forOrders(subject.orderIds);
    // No section while the person has none (eTIMS off, or nothing of theirs signed yet).
    if (!docs.length) return {};
    return {
      etims: docs.map((d) => ({
        document: d.trdInvcNo,
        kind: d.kind,
        invcNo: d.invcNo,
        buyerPin: d.request.custTin ?? null,
        buyerName: d.request.custNm ?? null,
        total: d.request.totAmt,
        state: d.state,
        receiptNumber: d.signature ? `${d.signature.sdcId ?? ''}/${d.signature.rcptNo}` : null,
        signedAt: d.signedAt,
        checkLink: d.signature?.qrUrl ?? null,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    // A clerk who registered documents (a refund's credit note), or a customer named so before.
    if (subject.accountId) await this.documents.forgetRegistrar(subject.accountId);
    for (const d of await this.documents.forOrders(subject.orderIds)) {
      if (d.personalBuyer) await this.documents.forgetBuyer(d._id);
      else if (d.request.custNm) {
        // An organisation's name stays; a person named in it goes.
        const name = scrubText(d.request.custNm, subject);
        if (name !== d.request.custNm) await this.documents.renameBuyer(d._id, name);
      }
    }
  }
}
