/**
 * The back office's eTIMS screens (issue 45): the queue of documents KRA has not signed (a clerk
 * fixes a buyer's PIN and resends, or copies a signature from KRA's portal) and the owner's daily
 * summary. The API answers these shapes; the back office reads them.
 */
import { KRA_PIN_MESSAGE, KRA_PIN_PATTERN, normaliseKraPin } from './organisations';
import { z } from './zod';

/**
 * The states a document can be listed by. `queued` includes the one being sent (`sending`); with
 * no state the list holds every document not signed yet (what still waits for KRA).
 */
export const ETIMS_LIST_STATES = ['failed', 'pending', 'queued', 'signed'] as const;
export type EtimsListState = (typeof ETIMS_LIST_STATES)[number];

/** A document's state as stored. */
export const ETIMS_DOCUMENT_STATES = ['queued', 'sending', 'signed', 'failed', 'pending'] as const;
export type EtimsDocumentState = (typeof ETIMS_DOCUMENT_STATES)[number];

export const ETIMS_STATE_LABELS: Readonly<Record<EtimsDocumentState, string>> = {
  queued: 'Queued',
  sending: 'Sending',
  signed: 'Signed',
  failed: 'Failed',
  pending: 'Pending',
};

/** KRA's tax types: A exempt, B 16 %, C zero-rated, D non-VAT, E 8 %. */
export const ETIMS_TAX_TYPES = ['A', 'B', 'C', 'D', 'E'] as const;
export type EtimsTaxType = (typeof ETIMS_TAX_TYPES)[number];
/** Each type's short name; a rate and its % never part (a no-break space between them). */
export const ETIMS_TAX_TYPE_LABELS: Readonly<Record<EtimsTaxType, string>> = {
  A: 'A exempt',
  B: 'B 16\u00a0%',
  C: 'C zero-rated',
  D: 'D non-VAT',
  E: 'E 8\u00a0%',
};

export const ETIMS_OFFICE_LIMITS = {
  /** Documents a page of the queue holds. */
  pageSize: 20,
  /** KRA's `custNm` is at most 60 characters. */
  buyerName: 60,
  /** A summary covers at most this many shop days. */
  summaryDays: 366,
  /** KRA's receipt signature (`rcptSign`): letters and digits, 16 as KRA gives it. */
  signatureMin: 16,
  signatureMax: 64,
  /** KRA's internal data (`intrlData`): letters and digits, 26 as KRA gives it. */
  internalDataMax: 100,
} as const;

/** `SCU-ID/receipt number` as KRA's portal shows a signed invoice: `KRACU0100000001/12`. */
export const ETIMS_CU_INVOICE_NUMBER = /^([A-Z0-9]{1,40})\/(\d{1,10})$/;

export const ETIMS_OFFICE_MESSAGES = {
  empty: 'Nothing waits for KRA',
  off: 'eTIMS is off (ETIMS_ENV=off): nothing is sent to KRA, so there is nothing to list.',
  buyerPin: `buyerPin: ${KRA_PIN_MESSAGE}; or empty to remove the buyer`,
  buyerName: `buyerName must be one line of at most ${ETIMS_OFFICE_LIMITS.buyerName} characters`,
  buyerNameWithoutPin:
    'buyerName needs a buyerPin: the document names no buyer, and KRA takes a name only with a PIN',
  buyerNameWithoutBuyer:
    'buyerName cannot go with an empty buyerPin: a document without a buyer names no one',
  noBuyerToRemove: 'The document names no buyer to remove (an empty buyerPin)',
  creditSaleNeedsBuyer:
    'An invoice on account names the organisation that owes it: correct its KRA PIN, not remove it (an empty buyerPin)',
  nothingToChange: 'Give a buyerPin or a buyerName to change, or send no body to resend as it is',
  cuInvoiceNumber:
    'cuInvoiceNumber must be the control unit invoice number as KRA’s portal shows it: the SCU ID, a slash and the receipt number (KRACU0100000001/12)',
  signature: `rcptSign must be the receipt signature as KRA’s portal shows it: ${ETIMS_OFFICE_LIMITS.signatureMin} to ${ETIMS_OFFICE_LIMITS.signatureMax} letters and digits`,
  internalData: `intrlData must be letters and digits, at most ${ETIMS_OFFICE_LIMITS.internalDataMax}`,
  totalReceiptNumber: 'totRcptNo must be a whole number of 1 or more',
  signedAt: 'signedAt must be the time KRA signed it (an ISO date and time)',
  signedAtFuture: 'signedAt is in the future: type the time KRA’s portal shows',
  signedAtBefore: 'signedAt is before the document was queued: type the time KRA’s portal shows',
  notPending:
    'Only a document KRA answered without a signature (pending) takes a signature by hand',
  source: 'source must name an eTIMS document (order:<id>:sale, refund:<id>, invoice:<id>…)',
} as const;

/** A signature KRA gave (or a clerk copied from KRA's portal). */
export interface EtimsSignatureView {
  /** `SCU-ID/receipt number`, as printed (the receipt number alone while the SCU ID is unknown). */
  cuInvoiceNumber: string;
  sdcId: string | null;
  mrcNo: string | null;
  rcptNo: number;
  /** The control unit's number over all receipts; null when a clerk did not type it. */
  totRcptNo: number | null;
  intrlData: string | null;
  rcptSign: string;
  /** When KRA signed it. */
  signedAt: string;
  /** KRA's receipt check page (the QR code). */
  qrUrl: string;
  /** Who copied it from KRA's portal, when a clerk did. */
  enteredBy: string | null;
}

/** One document of the queue (`GET /api/etims/documents`). */
export interface EtimsDocumentView {
  /** The document's key: `order:<id>:sale`, `refund:<id>`, `invoice:<id>`… */
  source: string;
  kind: 'sale' | 'credit-note';
  /** The shop's number printed on it. */
  trdInvcNo: string;
  /** The branch's eTIMS invoice number. */
  invcNo: number;
  state: EtimsDocumentState;
  attempts: number;
  /** KRA's last result code and words (null when OSCU gave no answer). */
  lastCode: string | null;
  lastMessage: string | null;
  /** The tax point (the payment, the invoice, the credit). */
  at: string;
  queuedAt: string;
  updatedAt: string;
  /** When a queued one is tried next. */
  nextTryAt: string | null;
  /** KES, tax included. */
  total: number;
  buyer: { pin: string; name: string | null } | null;
  orderId: string | null;
  /** A credit note's sale (its source). */
  original: string | null;
  /**
   * A queued credit note set aside until its sale (this number, `trdInvcNo`) is signed: KRA
   * refuses a credit note before. Sent by itself once the sale is signed; null otherwise.
   */
  waitsFor: string | null;
  signature: EtimsSignatureView | null;
}

export interface EtimsDocumentListResponse {
  /** False with ETIMS_ENV=off: the list is empty and nothing is sent. */
  enabled: boolean;
  documents: EtimsDocumentView[];
  total: number;
  page: number;
  pages: number;
}

/** Taxable amount and tax of one tax type, KES. */
export interface EtimsTaxAmounts {
  taxable: number;
  tax: number;
}

export interface EtimsSummaryFigures {
  /** Documents signed (sales and credit notes). */
  signed: number;
  /** Of them, credit notes. */
  creditNotes: number;
  pending: number;
  failed: number;
  /** Queued or being sent. */
  waiting: number;
  /** Signed documents' amounts by tax type; credit notes subtract. */
  taxByType: Record<EtimsTaxType, EtimsTaxAmounts>;
  /** Signed documents' total, KES (credit notes subtract). */
  total: number;
}

export interface EtimsSummaryDay extends EtimsSummaryFigures {
  /** The shop day (Africa/Nairobi), YYYY-MM-DD: the documents' tax point. */
  date: string;
}

export interface EtimsSummaryResponse {
  enabled: boolean;
  from: string;
  to: string;
  days: EtimsSummaryDay[];
  totals: EtimsSummaryFigures;
}

/** The summary CSV's header: a row per day, then the totals. */
export const ETIMS_SUMMARY_CSV_HEADER = [
  'date',
  'signed',
  'credit_notes',
  'pending',
  'failed',
  'waiting',
  ...ETIMS_TAX_TYPES.flatMap((t) => [`taxable_${t}`, `tax_${t}`]),
  'total',
] as const;

/**
 * The back office's resend form: a blank field changes nothing; `removeBuyer` takes the buyer off
 * (KRA does not know their PIN and they have no other: a sale to no one named). The API's DTO
 * takes the same PIN rule (trimmed, upper-cased, KRA_PIN_PATTERN).
 */
export const etimsResendSchema = z.object({
  buyerPin: z
    .string()
    .transform(normaliseKraPin)
    .refine((pin) => pin === '' || KRA_PIN_PATTERN.test(pin), ETIMS_OFFICE_MESSAGES.buyerPin),
  buyerName: z
    .string()
    .transform((name) => name.replace(/\s+/g, ' ').trim())
    .refine(
      (name) => name.length <= ETIMS_OFFICE_LIMITS.buyerName,
      ETIMS_OFFICE_MESSAGES.buyerName,
    ),
  removeBuyer: z.boolean().default(false),
});
export type EtimsResendForm = z.input<typeof etimsResendSchema>;

/**
 * The body of a resend from the form's values: only what was filled in, or an empty PIN when the
 * buyer is removed.
 */
export function etimsResendBody(values: z.output<typeof etimsResendSchema>): {
  buyerPin?: string;
  buyerName?: string;
} {
  if (values.removeBuyer) return { buyerPin: '' };
  return {
    ...(values.buyerPin ? { buyerPin: values.buyerPin } : {}),
    ...(values.buyerName ? { buyerName: values.buyerName } : {}),
  };
}

/**
 * The signature a clerk copies from KRA's portal; `signedAt` as a `datetime-local` input gives it
 * (YYYY-MM-DDTHH:mm), in Nairobi time as the portal shows it.
 */
export const etimsSignatureSchema = z.object({
  cuInvoiceNumber: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.string().regex(ETIMS_CU_INVOICE_NUMBER, ETIMS_OFFICE_MESSAGES.cuInvoiceNumber)),
  rcptSign: z
    .string()
    .trim()
    .regex(
      new RegExp(
        `^[A-Za-z0-9]{${ETIMS_OFFICE_LIMITS.signatureMin},${ETIMS_OFFICE_LIMITS.signatureMax}}$`,
      ),
      ETIMS_OFFICE_MESSAGES.signature,
    ),
  signedAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, ETIMS_OFFICE_MESSAGES.signedAt),
  intrlData: z
    .string()
    .trim()
    .regex(
      new RegExp(`^[A-Za-z0-9]{0,${ETIMS_OFFICE_LIMITS.internalDataMax}}$`),
      ETIMS_OFFICE_MESSAGES.internalData,
    ),
});
export type EtimsSignatureForm = z.input<typeof etimsSignatureSchema>;

/** A `datetime-local` value read as Nairobi time (UTC+3, no daylight saving), as an ISO instant. */
export function nairobiLocalToIso(local: string): string {
  const withSeconds = local.length === 16 ? `${local}:00` : local;
  return new Date(`${withSeconds}+03:00`).toISOString();
}

/** The body of a signature entry from the form's values. */
export function etimsSignatureBody(values: z.output<typeof etimsSignatureSchema>): {
  cuInvoiceNumber: string;
  rcptSign: string;
  signedAt: string;
  intrlData?: string;
} {
  return {
    cuInvoiceNumber: values.cuInvoiceNumber,
    rcptSign: values.rcptSign,
    signedAt: nairobiLocalToIso(values.signedAt),
    ...(values.intrlData ? { intrlData: values.intrlData } : {}),
  };
}
