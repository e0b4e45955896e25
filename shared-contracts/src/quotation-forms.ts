/**
 * A quotation's request (the buyer's, from the cart) and the staff's draft, with the messages the
 * API gives; accepting one and writing on it are organisation forms. Apart so that the storefront's
 * cart loads these without the organisation area's forms.
 */
import { TEXT_LIMITS } from './constants';
import { QUOTATION_LIMITS as QL, QUOTATION_MESSAGES as QM } from './quotations';
import { z } from './zod';

const trimmed = () => z.string().trim();

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const wholeKes = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of KES` })
    .int(`${label} must be a whole number of KES`)
    .min(0, `${label} cannot be below zero`)
    .max(10_000_000, `${label} must be at most 10000000`);

/** Where and when the organisation wants its seedlings. */
export const quotationDeliverySchema = z.object({
  siteName: trimmed()
    .min(1, 'The delivery site needs a name')
    .max(QL.siteName, `The site's name must be at most ${QL.siteName} characters`),
  county: trimmed().min(1, 'The county is required'),
  subCounty: trimmed().optional(),
  streetAddress: trimmed()
    .min(1, 'The street address is required')
    .max(
      TEXT_LIMITS.streetAddress,
      `The street address must be at most ${TEXT_LIMITS.streetAddress} characters`,
    ),
  date: z.string().regex(DAY, 'The delivery date must be a day written YYYY-MM-DD'),
});
export type QuotationDeliveryForm = z.input<typeof quotationDeliverySchema>;

const quotationNote = trimmed().max(QL.note, `The note must be at most ${QL.note} characters`);

/** A buyer's request from the cart: its lines come from the cart, these from the form. */
export const quotationRequestSchema = z.object({
  note: quotationNote,
  delivery: quotationDeliverySchema,
});
export type QuotationRequestForm = z.input<typeof quotationRequestSchema>;

/** A line as asked (from a phone call): product, unit and quantity; the desk chooses the source. */
export const quotationRequestLineSchema = z.object({
  productId: z.string().min(1, 'Choose a product'),
  unitId: z.string().min(1, 'Choose a unit'),
  quantity: z
    .number({ error: QM.lineQuantity })
    .int(QM.lineQuantity)
    .min(1, QM.lineQuantity)
    .max(QL.lineSeedlings, QM.lineQuantity),
});

/** Staff writing an organisation's request from a phone call: its lines and what the caller said. */
export const staffQuotationRequestSchema = z.object({
  lines: z
    .array(quotationRequestLineSchema)
    .min(1, QM.linesRequired)
    .max(QL.lines, QM.tooManyLines),
  note: quotationNote,
});
export type StaffQuotationRequestForm = z.input<typeof staffQuotationRequestSchema>;

/** One line of the staff's draft; `batchId` empty: ready stock. */
export const quotationDraftLineSchema = quotationRequestLineSchema.extend({
  batchId: z.string(),
  /** Empty: the API prices it (the price list on the shop's price). */
  unitPrice: wholeKes('The unit price').optional(),
});

/** `PUT /api/quotations/{id}/draft` as the quote desk's form holds it. */
export const quotationDraftSchema = z.object({
  lines: z.array(quotationDraftLineSchema).min(1, QM.linesRequired).max(QL.lines, QM.tooManyLines),
  delivery: quotationDeliverySchema,
  deliveryFee: wholeKes('The delivery fee'),
  validUntil: z.string().regex(DAY, QM.validUntil),
  note: quotationNote,
});
export type QuotationDraftForm = z.input<typeof quotationDraftSchema>;
