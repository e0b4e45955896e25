/**
 * How a gate sale is paid, as the till's payment panel holds it, and the rules the API checks shown
 * before sending: the cash given covers the cash due (the change is the rest), a split takes part
 * in cash and the rest by M-Pesa, an M-Pesa prompt needs a Safaricom number, a code needs the code.
 */
import {
  formatMoney,
  MPESA_MESSAGES,
  TILL_MESSAGES,
  toMpesaPhone,
  type TillPaymentInput,
} from '@spc/shared-contracts';

export const PAY_MODES = ['cash', 'mpesa-express', 'mpesa-code', 'split'] as const;
export type PayMode = (typeof PAY_MODES)[number];
export type MpesaKind = 'mpesa-express' | 'mpesa-code';

export const PAY_MODE_LABELS: Record<PayMode, string> = {
  cash: 'Cash',
  'mpesa-express': 'M-Pesa prompt',
  'mpesa-code': 'M-Pesa code',
  split: 'Cash + M-Pesa',
};

export const TILL_PAY_TEXTS = {
  emptyBasket: 'Add something to the basket first',
  splitCash: 'In a split, the cash part is more than 0 and less than the total',
  codeRequired: 'Type the M-Pesa code from the buyer’s message',
} as const;

export interface PayState {
  mode: PayMode;
  /** The cash the buyer hands over. */
  given?: number;
  /** A split's cash part (the rest is paid by M-Pesa). */
  cashPart?: number;
  /** A split's M-Pesa way. */
  mpesaKind: MpesaKind;
  code: string;
  /** The phone the M-Pesa prompt goes to. */
  phone: string;
}

export const emptyPayState = (): PayState => ({
  mode: 'cash',
  mpesaKind: 'mpesa-express',
  code: '',
  phone: '',
});

/** The cash the buyer owes in notes: the whole sale, a split's cash part, or nothing. */
export function cashDue(pay: PayState, total: number): number {
  if (pay.mode === 'cash') return total;
  if (pay.mode === 'split') return pay.cashPart ?? 0;
  return 0;
}

/** The M-Pesa way of the payment, if any. */
export function mpesaKindOf(pay: PayState): MpesaKind | null {
  if (pay.mode === 'cash') return null;
  return pay.mode === 'split' ? pay.mpesaKind : pay.mode;
}

/** The change to hand back: what was given above the cash due (0 when short). */
export function changeDue(pay: PayState, total: number): number {
  const due = cashDue(pay, total);
  return due > 0 && (pay.given ?? 0) > due ? (pay.given ?? 0) - due : 0;
}

/** Why the sale cannot be charged yet, in the API's words, or undefined. */
export function paymentProblem(pay: PayState, total: number): string | undefined {
  if (total <= 0) return TILL_PAY_TEXTS.emptyBasket;
  if (pay.mode === 'split' && !((pay.cashPart ?? 0) > 0 && (pay.cashPart ?? 0) < total))
    return TILL_PAY_TEXTS.splitCash;
  const due = cashDue(pay, total);
  if (due > 0 && (pay.given ?? 0) < due) return TILL_MESSAGES.cashShort(formatMoney(due));
  const kind = mpesaKindOf(pay);
  if (kind === 'mpesa-express' && !toMpesaPhone(pay.phone)) return MPESA_MESSAGES.invalidPhone;
  if (kind === 'mpesa-code' && !pay.code.trim()) return TILL_PAY_TEXTS.codeRequired;
  return undefined;
}

/** The sale's payments as the API takes them (call only when `paymentProblem` is undefined). */
export function paymentsFor(pay: PayState, total: number): TillPaymentInput[] {
  const payments: TillPaymentInput[] = [];
  const cash = cashDue(pay, total);
  if (cash > 0) payments.push({ method: 'cash', amount: cash, given: pay.given ?? cash });
  const kind = mpesaKindOf(pay);
  const amount = total - cash;
  if (kind === 'mpesa-express')
    payments.push({ method: kind, amount, phone: toMpesaPhone(pay.phone) ?? pay.phone });
  if (kind === 'mpesa-code')
    payments.push({ method: kind, amount, code: pay.code.trim().toUpperCase() });
  return payments;
}
