/**
 * The back office's batch forms checked with zod (issue 32): a new batch and a batch's loss. The
 * rules are the API's (the ready date is never before the sowing date; seedlings started 1 to
 * 1,000,000), so the form shows them while the user types.
 */
import { z } from './zod';
import { BATCH_LIMITS, BOOKING_MESSAGES } from './bookings';
import { LOSS_REASONS, STOCK_MESSAGES } from './stock';

export const BATCH_FORM_MESSAGES = {
  product: 'Choose the product sown in this batch',
  sownOn: 'The sowing date is required',
  readyOn: 'The ready date is required',
  readyBeforeSown: BOOKING_MESSAGES.readyBeforeSown,
  started: 'Seedlings started must be a whole number from 1 to 1,000,000',
  lossQuantity: 'The seedlings lost must be a whole number of at least 1',
  lossMoreThanLeft: (left: number) =>
    `Only ${left.toLocaleString('en-US')} seedlings are left in this batch`,
  noteTooLong: `The note can be at most ${BATCH_LIMITS.noteMaxLength} characters`,
} as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const note = z
  .string()
  .trim()
  .max(BATCH_LIMITS.noteMaxLength, BATCH_FORM_MESSAGES.noteTooLong)
  .optional();

/** New batch (`POST /api/batches`): product, sowing and ready dates (YYYY-MM-DD), started, note. */
export const newBatchSchema = z
  .object({
    productId: z.string({ error: BATCH_FORM_MESSAGES.product }).min(1, BATCH_FORM_MESSAGES.product),
    sownOn: z.string({ error: BATCH_FORM_MESSAGES.sownOn }).regex(DAY, BATCH_FORM_MESSAGES.sownOn),
    readyOn: z
      .string({ error: BATCH_FORM_MESSAGES.readyOn })
      .regex(DAY, BATCH_FORM_MESSAGES.readyOn),
    started: z
      .number({ error: BATCH_FORM_MESSAGES.started })
      .int(BATCH_FORM_MESSAGES.started)
      .min(1, BATCH_FORM_MESSAGES.started)
      .max(BATCH_LIMITS.maxStarted, BATCH_FORM_MESSAGES.started),
    note,
  })
  .refine((b) => b.readyOn >= b.sownOn, {
    path: ['readyOn'],
    message: BATCH_FORM_MESSAGES.readyBeforeSown,
    // Checked as soon as both dates are there, whatever else is still missing.
    when: ({ value }) => {
      const v = value as { sownOn?: unknown; readyOn?: unknown };
      return (
        typeof v.sownOn === 'string' &&
        DAY.test(v.sownOn) &&
        typeof v.readyOn === 'string' &&
        DAY.test(v.readyOn)
      );
    },
  });
export type NewBatchPayload = z.infer<typeof newBatchSchema>;

/** Record a loss on a batch (`POST /api/batches/:id/losses`): how many, why, a note. */
export const batchLossSchema = z.object({
  reason: z.enum(LOSS_REASONS, { error: STOCK_MESSAGES.lossReason }),
  quantity: z
    .number({ error: BATCH_FORM_MESSAGES.lossQuantity })
    .int(BATCH_FORM_MESSAGES.lossQuantity)
    .min(1, BATCH_FORM_MESSAGES.lossQuantity)
    .max(BATCH_LIMITS.maxStarted, BATCH_FORM_MESSAGES.lossQuantity),
  note,
});
export type BatchLossPayload = z.infer<typeof batchLossSchema>;

/** The API's words when a recorded deposit is not the booking's deposit (`KES 4,500`). */
export const bookingDepositMessage = (deposit: number) =>
  `The deposit of this booking is KES ${deposit.toLocaleString('en-US')}`;

/**
 * Record deposit (`POST /api/orders/:id/booking/deposit`): the transaction code the clerk saw and
 * the amount, which must be the booking's deposit exactly.
 */
export const bookingDepositSchema = (deposit: number) =>
  z.object({
    transactionCode: z
      .string({ error: 'Transaction code is required' })
      .trim()
      .min(1, 'Transaction code is required')
      .max(40, 'Transaction code must be at most 40 characters'),
    amount: z
      .number({ error: 'Amount is required' })
      .refine((v) => v === deposit, bookingDepositMessage(deposit)),
  });
export type BookingDepositPayload = z.infer<ReturnType<typeof bookingDepositSchema>>;
