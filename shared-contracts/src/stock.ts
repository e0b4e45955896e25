import { z } from './zod';

/**
 * The stock ledger: every change of a product's stock is one movement with a reason. The back
 * office shows these words; the API accepts and answers the codes.
 */
export const STOCK_REASONS = [
  'opening',
  'sale',
  'return',
  'restock',
  'out_of_stock',
  'correction',
  'died',
  'damaged',
  'given_away',
  // A batch's seedlings (issue 32): sown into the batch; moved from the batch into ready stock.
  'sown',
  'batch-ready',
] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/** Reasons a person may give for a loss. */
export const LOSS_REASONS = ['died', 'damaged', 'given_away'] as const;
export type LossReason = (typeof LOSS_REASONS)[number];

export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  opening: 'Opening balance',
  sale: 'Sale',
  return: 'Return',
  restock: 'Restock',
  out_of_stock: 'Marked out of stock',
  correction: 'Correction (count)',
  died: 'Loss: died',
  damaged: 'Loss: damaged',
  given_away: 'Loss: given away',
  sown: 'Sown (batch)',
  'batch-ready': 'Batch ready',
};

/** The words a loss is recorded with ("Recorded 3 Mango seedlings as died"). */
export const LOSS_REASON_WORDS: Record<LossReason, string> = {
  died: 'died',
  damaged: 'damaged',
  given_away: 'given away',
};

/**
 * A gate sale hands seedlings over even when the stock went below zero meanwhile (issue 47): its
 * movement is kept as it happened and flagged `short`, the product shows 0 to shoppers and the
 * shop refuses it until the stock is counted again (a count, or the product form's stock).
 */
export const STOCK_SHORT_LABEL = 'Short: sold at the gate below zero; count this stock';

export const STOCK_LIMITS = {
  noteMaxLength: 500,
  /** Movements a page of the ledger shows by default, and at most. */
  movementsPageSize: 20,
  movementsMaxPageSize: 100,
  /** The highest count or loss one entry may record. */
  maxQuantity: 1_000_000,
} as const;

export const STOCK_MESSAGES = {
  lossQuantity: 'The quantity lost must be a whole number of at least 1',
  lossReason: 'Choose why the stock was lost: died, damaged or given away',
  countedQuantity: 'The counted quantity must be a whole number of 0 or more',
  noteTooLong: `The note can be at most ${STOCK_LIMITS.noteMaxLength} characters`,
  threshold:
    'The low-stock threshold must be a whole number of 0 or more, or empty for the default',
  belowZero: (left: number) => `Only ${left} in stock: a loss cannot take the stock below 0`,
} as const;

const whole = (message: string, min: number) =>
  z
    .number({ error: message })
    .int(message)
    .min(min, message)
    .max(STOCK_LIMITS.maxQuantity, message);
const note = z
  .string()
  .trim()
  .max(STOCK_LIMITS.noteMaxLength, STOCK_MESSAGES.noteTooLong)
  .optional();

/** Back office: Record a loss (`POST /api/stock/products/:id/losses`). */
export const recordLossSchema = z.object({
  quantity: whole(STOCK_MESSAGES.lossQuantity, 1),
  reason: z.enum(LOSS_REASONS, { error: STOCK_MESSAGES.lossReason }),
  note,
});

/** Back office: Record a count (`POST /api/stock/products/:id/counts`). */
export const recordCountSchema = z.object({
  countedQuantity: whole(STOCK_MESSAGES.countedQuantity, 0),
  note,
});

export type RecordLossPayload = z.output<typeof recordLossSchema>;
export type RecordCountPayload = z.output<typeof recordCountSchema>;
