import { escapeRegExp } from '../common/pagination';
import { oscuDate, oscuTimestamp } from './oscu-client';
import { oscuSalesItems, oscuTotals, type OscuLine } from './oscu-tax';
import type {
  OscuCreditNoteReason,
  OscuPaymentType,
  OscuRegistrar,
  OscuSalesRequest,
} from './oscu.types';

/** What a module asks to have signed: a sale (`S`) or a credit note (`R`) against a signed sale. */
export interface EtimsDocumentInput {
  /**
   * The document's one key, whatever asks for it again: `order:<id>:sale`, `refund:<id>`,
   * `invoice:<id>`, `booking:<id>:deposit:<entry>`. A second enqueue of a key answers the first.
   */
  source: string;
  /** `sale` (rcptTyCd S) or `credit-note` (R). */
  kind: 'sale' | 'credit-note';
  /** For a credit note: the source key of the sale it credits (queued before it). */
  original?: string | null;
  /** The shop's own document number, printed on it (a purchase number, INV-000042, CN-000007). */
  trdInvcNo: string;
  /** The order it belongs to, when it does (a person's export and erasure find it so). */
  orderId?: string | null;
  /** The buyer's KRA PIN and name, when known; `person` when the buyer is a person (not a body). */
  buyer?: { tin: string; name?: string | null; person: boolean } | null;
  /** 06 mobile money, 02 credit (an invoice on account), 01 cash, 05 card. */
  paymentType: OscuPaymentType;
  /** The tax point: the payment received, the invoice issued, the credit made. Never ahead. */
  at: Date;
  /** A credit note's reason: 06 refund unless said. */
  creditReason?: OscuCreditNoteReason | null;
  /**
   * A credit note's seedlings came back (a refund of a cancelled order, goods returned or never
   * delivered), unless false (a price corrected): a sale credited in whole by credit notes that
   * bring goods back is a stock return to KRA.
   */
  returnsGoods?: boolean;
  lines: OscuLine[];
  /** Who asked for it (`system` for automatic signing). */
  by?: { id: string; name: string } | null;
  /**
   * Why the document cannot be sent as it is (a product without an item classification code): it
   * is queued `failed` with this message, holding its number, for a clerk to fix the data and
   * resend.
   */
  problem?: string | null;
}

/** KRA's registrar fields, at most 20 and 60 characters. */
export function registrarOf(by: EtimsDocumentInput['by']): OscuRegistrar {
  const id = (by?.id || 'system').slice(0, 20);
  const name = (by?.name || 'system').slice(0, 60);
  return { regrId: id, regrNm: name, modrId: id, modrNm: name };
}

/**
 * The `saveTrnsSalesOsdc` request of a document, with its number and (for a credit note) the
 * number of the sale it credits. Prices stay tax-inclusive; the lines and the breakdown by tax type
 * come from oscu-tax. Built once when it is queued (and again only when a clerk changes it), so
 * every resend of the number carries the same content.
 */
export function buildSalesRequest(
  input: EtimsDocumentInput,
  invcNo: number,
  orgInvcNo: number,
  queuedAt: Date,
): OscuSalesRequest {
  const itemList = oscuSalesItems(input.lines);
  const credit = input.kind === 'credit-note';
  const custTin = input.buyer?.tin || null;
  return {
    trdInvcNo: input.trdInvcNo.slice(0, 50),
    invcNo,
    orgInvcNo: credit ? orgInvcNo : 0,
    custTin,
    custNm: input.buyer?.name ? input.buyer.name.slice(0, 60) : null,
    salesTyCd: 'N',
    rcptTyCd: credit ? 'R' : 'S',
    pmtTyCd: input.paymentType,
    salesSttsCd: '02',
    cfmDt: oscuTimestamp(input.at),
    salesDt: oscuDate(input.at),
    rfdDt: credit ? oscuTimestamp(input.at) : null,
    rfdRsnCd: credit ? (input.creditReason ?? '06') : null,
    ...oscuTotals(itemList),
    prchrAcptcYn: 'N',
    ...registrarOf(input.by),
    receipt: { custTin, rcptPbctDt: oscuTimestamp(queuedAt), prchrAcptcYn: 'N' },
    itemList,
  };
}

/** What is wrong with a document before anything is written; null when it can be queued. */
export function inputProblem(input: EtimsDocumentInput, now: Date): string | null {
  if (!input.source || input.source.length > 200)
    return 'source must name the document (at most 200 characters)';
  if (!input.trdInvcNo) return 'trdInvcNo is required';
  if (input.kind !== 'sale' && input.kind !== 'credit-note')
    return 'kind must be sale or credit-note';
  if (input.kind === 'credit-note' && !input.original)
    return 'a credit note names the sale it credits (original)';
  if (!input.lines.length) return 'a document has at least one line';
  for (const [i, line] of input.lines.entries()) {
    if (!(line.qty > 0)) return `lines[${i}].qty must be more than 0`;
    if (!(line.unitPrice >= 0)) return `lines[${i}].unitPrice must not be negative`;
    if ((line.discount ?? 0) < 0 || (line.discount ?? 0) > line.unitPrice * line.qty)
      return `lines[${i}].discount must be between 0 and the line's amount`;
    // A credit note's lines are rebuilt from its sale's as KRA signs them, before it is sent: one
    // against a sale held back for a missing classification is queued, and waits for it.
    if (!line.itemCd || (!line.itemClsCd && !input.problem && input.kind !== 'credit-note'))
      return `lines[${i}] needs its item code and classification`;
  }
  if (Number.isNaN(input.at.getTime())) return 'at must be a time';
  // Five minutes for clocks to disagree; KRA refuses a sale dated ahead.
  if (input.at.getTime() > now.getTime() + 5 * 60_000) return 'at (the tax point) is in the future';
  return null;
}

/** What stands in a text (KRA's words, a log line) for the buyer's PIN and name. */
export const BUYER_PIN_WORD = '[buyer PIN]';
export const BUYER_NAME_WORD = '[buyer name]';

/**
 * `text` with the buyer's PIN and name replaced by neutral words, for each of `buyers` in turn (a
 * document's input names them in full, its request as sent): KRA's refusal of a PIN quotes it, and
 * a log line or an erased document must not keep it.
 */
export function redactBuyer(
  text: string,
  ...buyers: ({ tin?: string | null; name?: string | null } | null | undefined)[]
): string {
  let out = text;
  for (const buyer of buyers)
    for (const [word, stand] of [
      [buyer?.tin, BUYER_PIN_WORD],
      [buyer?.name, BUYER_NAME_WORD],
    ] as const) {
      const trimmed = word?.trim();
      if (trimmed && trimmed.length >= 2)
        out = out.replace(new RegExp(escapeRegExp(trimmed), 'gi'), stand);
    }
  return out;
}
