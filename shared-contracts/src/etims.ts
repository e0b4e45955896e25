/**
 * What the shop's documents and pages say of a document's KRA eTIMS signing (issue 45): the
 * receipt, invoice and delivery note PDFs, the back office's order detail and the customer's order
 * page. No zod here: the order pages import it.
 */

/** Which of an order's documents was signed: its sale, a booking's deposit or balance, … */
export const ETIMS_DOCUMENT_KINDS = [
  'sale',
  'deposit',
  'balance',
  'invoice',
  'credit-note',
] as const;
export type EtimsDocumentKind = (typeof ETIMS_DOCUMENT_KINDS)[number];

/** A document as its reader sees it: signed by KRA, or not yet (waiting, refused, being fixed). */
export const ETIMS_VIEW_STATES = ['signed', 'pending'] as const;
export type EtimsViewState = (typeof ETIMS_VIEW_STATES)[number];

export const ETIMS_KIND_LABELS: Readonly<Record<EtimsDocumentKind, string>> = {
  sale: 'Sale',
  deposit: 'Deposit',
  balance: 'Balance',
  invoice: 'Invoice',
  'credit-note': 'Credit note',
};

export const ETIMS_TEXTS = {
  heading: 'KRA eTIMS',
  /** What a document not (yet) signed says, in place of the signed number. */
  pending: 'eTIMS pending',
  pendingWhy:
    'Not yet signed by KRA: the control unit number and the QR code follow when KRA has signed it.',
  cuInvoiceNo: 'CU invoice number',
  signature: 'Signature',
  internalData: 'Internal data',
  signedAt: 'Signed',
  mrcNo: 'MRC number',
  /** A document signed in a buyer's name (they gave their KRA PIN): whose tax invoice it is. */
  buyer: 'Buyer',
  buyerPin: 'Buyer KRA PIN',
  check: 'Check it with KRA',
  taxHeading: 'Tax by type',
  taxType: 'Tax type',
  taxAmount: 'Amount (tax incl.)',
  taxable: 'Taxable',
  tax: 'Tax',
} as const;

/** `KES 1,234.56`: an amount to the cent (tax is worked out to the cent). */
export function formatKes(amount: number, label: 'KES' | 'KSH' = 'KES'): string {
  return `${label} ${amount.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })}`;
}

/** "eTIMS: KRACU0100000001/7" or "eTIMS pending": one line for an order page. */
export function etimsLine(doc: { state: EtimsViewState; cuInvoiceNo: string | null }): string {
  return doc.state === 'signed' && doc.cuInvoiceNo
    ? `eTIMS: ${doc.cuInvoiceNo}`
    : ETIMS_TEXTS.pending;
}
