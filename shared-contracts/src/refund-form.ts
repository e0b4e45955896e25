/**
 * Back office: the refund recorded when a paid order is cancelled. The same rules and texts as the
 * API's refund check: the method, the amount paid to the shilling, and for M-Pesa the reversal
 * code (a reference is at most 60 characters).
 */
import { z } from './zod';
import { PAYMENT_METHODS } from './constants';
import { formatMoney } from './format';

export const REFUND_REFERENCE_MAX = 60;

export const REFUND_MESSAGES = {
  method: `Refund method must be one of ${PAYMENT_METHODS.join(', ')}`,
  amountWhole: 'Refund amount must be whole shillings',
  amountMin: 'Refund amount must be at least 1',
  amountPaid: (paid: number) => `The refund must be the amount paid, ${formatMoney(paid)}`,
  referenceMax: `Refund reference must be at most ${REFUND_REFERENCE_MAX} characters`,
  mpesaReference: 'An M-Pesa refund needs its reference (the reversal or transaction code)',
} as const;

/** The refund form for an order paid `paid` KES. */
export function refundFormSchema(paid: number) {
  return z
    .object({
      method: z.enum(PAYMENT_METHODS, { error: REFUND_MESSAGES.method }),
      amount: z
        .number({ error: REFUND_MESSAGES.amountWhole })
        .int(REFUND_MESSAGES.amountWhole)
        .min(1, REFUND_MESSAGES.amountMin),
      reference: z.string().trim().max(REFUND_REFERENCE_MAX, REFUND_MESSAGES.referenceMax),
      /** M-Pesa only: the shop sends the money back through Daraja; the code is filled in then. */
      send: z.boolean().optional(),
    })
    .superRefine((v, ctx) => {
      if (v.amount !== paid)
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: REFUND_MESSAGES.amountPaid(paid),
        });
      if (v.method === 'Mpesa' && !v.send && !v.reference)
        ctx.addIssue({
          code: 'custom',
          path: ['reference'],
          message: REFUND_MESSAGES.mpesaReference,
        });
    });
}
export type RefundFormInput = z.input<ReturnType<typeof refundFormSchema>>;
export type RefundForm = z.infer<ReturnType<typeof refundFormSchema>>;
