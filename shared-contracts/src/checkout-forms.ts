/**
 * Checkout and payment forms with the specs' messages; the API's order and payment DTOs enforce the
 * same rules (a test feeds both the same samples).
 */
import { z } from './zod';
import {
  LIMITS,
  OBJECT_ID_PATTERN,
  PAYMENT_METHODS,
  PHONE_PATTERN,
  TEXT_LIMITS,
} from './constants';
import { VALIDATION_MESSAGES as M } from './messages';
import { buyerKraPinSchema } from './buyer-kra-pin';

const trimmed = () => z.string().trim();

/** Storefront checkout; sub-county and ward come from the location pickers. */
export const checkoutFormSchema = z.object({
  fullName: trimmed()
    .min(1, M.fullNameRequired)
    .max(TEXT_LIMITS.fullName, `Full name must be at most ${TEXT_LIMITS.fullName} characters`),
  phoneNumber: trimmed()
    .min(1, M.phoneRequired)
    .max(LIMITS.checkoutPhoneMaxLength, M.phoneInvalid)
    .regex(PHONE_PATTERN, M.phoneInvalid),
  email: trimmed()
    .min(1, M.emailRequired)
    .max(TEXT_LIMITS.email, M.emailInvalid)
    .pipe(z.email(M.emailInvalid)),
  county: trimmed().min(1, M.countyRequired).max(TEXT_LIMITS.county, M.countyRequired),
  subCounty: trimmed()
    .max(TEXT_LIMITS.county, `Sub-county must be at most ${TEXT_LIMITS.county} characters`)
    .optional(),
  ward: trimmed()
    .max(TEXT_LIMITS.county, `Ward must be at most ${TEXT_LIMITS.county} characters`)
    .optional(),
  streetAddress: trimmed()
    .min(1, M.streetAddressRequired)
    .max(
      TEXT_LIMITS.streetAddress,
      `Street address must be at most ${TEXT_LIMITS.streetAddress} characters`,
    ),
  /** Sent beside `guestInfo` (the order's `kraPin`), not in it. */
  kraPin: buyerKraPinSchema.optional(),
});
export type CheckoutForm = z.infer<typeof checkoutFormSchema>;

/** Most lines one order may have, and most units of one product in it. */
export const ORDER_LIMITS = { maxLines: 50, maxQuantityPerLine: 1000 } as const;

export const orderLineSchema = z.object({
  _id: z.string().regex(OBJECT_ID_PATTERN, 'Each product needs a valid _id'),
  quantity: z
    .number()
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(
      ORDER_LIMITS.maxQuantityPerLine,
      `Quantity must be at most ${ORDER_LIMITS.maxQuantityPerLine}`,
    ),
});

/** Back office: Complete Payment. `completedBy` is the signed-in user. */
export const paymentFormSchema = z
  .object({
    paymentMethod: z.enum(PAYMENT_METHODS, { error: M.paymentMethodRequired }),
    amount: z
      .number({ error: M.amountRequired })
      .int('Amount must be whole shillings')
      .positive(M.amountRequired),
    transactionCode: z
      .string()
      .trim()
      .max(40, 'Transaction code must be at most 40 characters')
      .optional(),
    timePaid: z.string().trim().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.paymentMethod !== 'Mpesa') return;
    if (!v.transactionCode)
      ctx.addIssue({
        code: 'custom',
        path: ['transactionCode'],
        message: M.transactionCodeRequired,
      });
    if (!v.timePaid)
      ctx.addIssue({ code: 'custom', path: ['timePaid'], message: M.timePaidRequired });
  });
export type PaymentForm = z.infer<typeof paymentFormSchema>;
