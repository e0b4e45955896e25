/**
 * The back office's till forms checked with zod (issue 46): opening a session with its float,
 * closing it with the cash counted, a clerk's own till PIN, and the second person's approval of a
 * void or a refund. The rules and words are the API's (TILL_MESSAGES), shown before sending.
 *
 * Each schema is made by a function, so a page that does not use the till (the back office's first
 * load) does not carry them: zod schemas built at a module's top level are kept by the bundler.
 */
import { z } from './zod';
import { formatMoney } from './format';
import { TILL_MESSAGES, TILL_PIN_PATTERN } from './till';

export const TILL_FORM_MESSAGES = {
  float: 'The float is the cash in the drawer at the start: whole shillings, 0 or more',
  countedCash: 'The cash counted is whole shillings, 0 or more',
  currentPassword: 'Your password is required',
  approver: 'Choose who approves it (another staff member)',
  staffMember: 'Choose the staff member',
  reason: 'Say why, in a few words',
  reasonMax: 'The reason can be at most 200 characters',
  refundAmount: 'The refund is whole shillings, at least 1',
} as const;

function wholeShillings(message: string) {
  return z.number({ error: message }).int(message).min(0, message);
}

/** `POST /api/till/sessions`: the float in the drawer. */
export function openTillSchema() {
  return z.object({ float: wholeShillings(TILL_FORM_MESSAGES.float) });
}
export type OpenTillForm = z.infer<ReturnType<typeof openTillSchema>>;

/** `POST /api/till/sessions/:id/close`: the cash counted in the drawer. */
export function closeTillSchema() {
  return z.object({ countedCash: wholeShillings(TILL_FORM_MESSAGES.countedCash) });
}
export type CloseTillForm = z.infer<ReturnType<typeof closeTillSchema>>;

function pin() {
  return z.string().regex(TILL_PIN_PATTERN, TILL_MESSAGES.pinForm);
}

/** `PUT /api/till/pin`: a clerk's own PIN, with their password. */
export function tillPinSchema() {
  return z.object({
    pin: pin(),
    currentPassword: z.string().min(1, TILL_FORM_MESSAGES.currentPassword),
  });
}
export type TillPinForm = z.infer<ReturnType<typeof tillPinSchema>>;

/** `PUT /api/till/pin/:staffId` (admins): a new PIN for a staff member, e.g. once theirs locked. */
export function tillPinResetSchema() {
  return z.object({
    staffId: z.string().min(1, TILL_FORM_MESSAGES.staffMember),
    pin: pin(),
  });
}
export type TillPinResetForm = z.infer<ReturnType<typeof tillPinResetSchema>>;

function approval() {
  return {
    approverId: z.string().min(1, TILL_FORM_MESSAGES.approver),
    pin: pin(),
    reason: z
      .string()
      .trim()
      .min(1, TILL_FORM_MESSAGES.reason)
      .max(200, TILL_FORM_MESSAGES.reasonMax),
  };
}

/** `POST /api/till/sales/:orderId/void`: who approves, their PIN and why. */
export function tillVoidSchema() {
  return z.object(approval());
}
export type TillVoidForm = z.infer<ReturnType<typeof tillVoidSchema>>;

/** `POST /api/till/sales/:orderId/refund`: the amount (at most `left`), who approves, PIN, why. */
export function tillRefundSchema(left: number) {
  return z.object({
    ...approval(),
    amount: z
      .number({ error: TILL_FORM_MESSAGES.refundAmount })
      .int(TILL_FORM_MESSAGES.refundAmount)
      .min(1, TILL_FORM_MESSAGES.refundAmount)
      .max(left, TILL_MESSAGES.refundAboveSale(formatMoney(left))),
  });
}
export type TillRefundForm = z.infer<ReturnType<typeof tillRefundSchema>>;
