import { BadRequestException } from '@nestjs/common';
import {
  formatMoney,
  TILL_MESSAGES,
  type TillPaymentInput,
  type TillPaymentMethod,
} from '@spc/shared-contracts';

/** A gate sale's payment as checked: the change worked out, the code still as typed. */
export interface CheckedPayment {
  method: TillPaymentMethod;
  amount: number;
  given: number | null;
  change: number | null;
  code: string | null;
  phone: string | null;
}

export const bad = (message: string) =>
  new BadRequestException({ message, code: 'VALIDATION_FAILED' });

/**
 * Refuses (400) payments that cannot pay this total: they must add up to it, be one cash and at
 * most one M-Pesa payment, the cash given at least the cash due, a code with `mpesa-code`.
 */
export function checkPayments(payments: TillPaymentInput[], total: number): CheckedPayment[] {
  const cash = payments.filter((p) => p.method === 'cash');
  const mpesa = payments.filter((p) => p.method !== 'cash');
  if (cash.length > 1 || mpesa.length > 1)
    throw bad('A sale is paid by cash, one M-Pesa payment, or both split');
  const paid = payments.reduce((n, p) => n + p.amount, 0);
  if (paid !== total) throw bad(TILL_MESSAGES.paymentsMismatch(formatMoney(total)));
  return payments.map((p) => {
    if (p.method === 'cash') {
      const given = p.given ?? p.amount;
      if (given < p.amount) throw bad(TILL_MESSAGES.cashShort(formatMoney(p.amount)));
      return { ...base(p), given, change: given - p.amount };
    }
    if (p.method === 'mpesa-code' && !p.code?.trim())
      throw bad('The M-Pesa code the buyer shows is required');
    return base(p);
  });
}

const base = (p: TillPaymentInput): CheckedPayment => ({
  method: p.method,
  amount: p.amount,
  given: null,
  change: null,
  code: p.method === 'mpesa-code' ? (p.code ?? null) : null,
  phone: p.phone ?? null,
});
