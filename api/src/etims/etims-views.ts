import {
  TAX_TYPE_INFO,
  type EtimsDocumentKind,
  type EtimsViewState,
  type TaxType,
} from '@spc/shared-contracts';
import type { EtimsDocument } from './etims-documents.repository';
import { parseOscuTimestamp } from './oscu-client';
import { OSCU_TAX_TYPES } from './oscu.types';

/** The tax of one type on a document, as KRA was sent it. KES, to the cent. */
export interface EtimsTaxView {
  taxType: TaxType;
  label: string;
  rate: number;
  /** The lines of this type, tax included (KRA's `taxblAmt`: prices stay tax-inclusive). */
  amount: number;
  /** `amount` less `tax`. */
  taxable: number;
  tax: number;
}

/**
 * A document's eTIMS signing as its readers see it (the order detail, the customer's order page,
 * the PDFs): signed with KRA's number, signature, time and QR link, or pending (queued, being
 * sent, refused by KRA or waiting for a clerk: not a valid tax invoice yet). KRA's messages stay in
 * the back office's queue.
 */
export interface EtimsDocumentView {
  kind: EtimsDocumentKind;
  /** The shop's document number KRA was sent (`trdInvcNo`). */
  trdInvcNo: string;
  state: EtimsViewState;
  /** The control unit invoice number, `<sdcId>/<rcptNo>` as KRA prints it; null while pending. */
  cuInvoiceNo: string | null;
  /** KRA's receipt signature (`rcptSign`); null while pending. */
  signature: string | null;
  internalData: string | null;
  mrcNo: string | null;
  /** When KRA signed it (ISO); null while pending. */
  signedAt: string | null;
  /** KRA's page checking it (the QR code's link); null while pending. */
  qrUrl: string | null;
  /**
   * The buyer KRA was sent (`custTin`, `custNm`): whose tax invoice it is; null for a sale to no
   * one named, and once an erasure took a person's PIN and name off it.
   */
  buyer: { pin: string; name: string | null } | null;
  /** Per tax type the document's lines have, in KRA's order. */
  taxes: EtimsTaxView[];
  total: { amount: number; taxable: number; tax: number };
}

/** Which document a source key names (`order:<id>:sale`, `order:<id>:deposit:<entry>`, …). */
export function etimsKindOf(doc: Pick<EtimsDocument, '_id' | 'kind'>): EtimsDocumentKind {
  if (doc.kind === 'credit-note') return 'credit-note';
  if (doc._id.startsWith('invoice:')) return 'invoice';
  if (/^order:[^:]+:deposit(:|$)/.test(doc._id)) return 'deposit';
  if (/^order:[^:]+:balance$/.test(doc._id)) return 'balance';
  return 'sale';
}

const cents = (kes: number) => Math.round(kes * 100);

/** A document as its readers see it (see EtimsDocumentView). */
export function etimsView(doc: EtimsDocument): EtimsDocumentView {
  const signed = doc.state === 'signed' && !!doc.signature;
  const s = signed ? doc.signature! : null;
  const used = new Set(doc.request.itemList.map((item) => item.taxTyCd));
  const taxes = OSCU_TAX_TYPES.filter((type) => used.has(type)).map((type): EtimsTaxView => {
    const amount = doc.request[`taxblAmt${type}`];
    const tax = doc.request[`taxAmt${type}`];
    return {
      taxType: type,
      label: TAX_TYPE_INFO[type].label,
      rate: doc.request[`taxRt${type}`],
      amount,
      taxable: (cents(amount) - cents(tax)) / 100,
      tax,
    };
  });
  const signedAt = s ? (parseOscuTimestamp(s.signedAt) ?? doc.signedAt) : null;
  return {
    kind: etimsKindOf(doc),
    trdInvcNo: doc.trdInvcNo,
    state: signed ? 'signed' : 'pending',
    cuInvoiceNo: s ? (s.sdcId ? `${s.sdcId}/${s.rcptNo}` : String(s.rcptNo)) : null,
    signature: s?.rcptSign ?? null,
    internalData: s?.intrlData ?? null,
    mrcNo: s?.mrcNo ?? null,
    signedAt: signedAt ? new Date(signedAt).toISOString() : null,
    qrUrl: s?.qrUrl ?? null,
    buyer: doc.request.custTin
      ? { pin: doc.request.custTin, name: doc.request.custNm ?? null }
      : null,
    taxes,
    total: {
      amount: doc.request.totTaxblAmt,
      taxable: (cents(doc.request.totTaxblAmt) - cents(doc.request.totTaxAmt)) / 100,
      tax: doc.request.totTaxAmt,
    },
  };
}
