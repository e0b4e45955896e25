/**
 * The tranche forms' client checks (issue 43), in the API's words (TRANCHE_MESSAGES): the plan
 * (or change) of a tranche and the signed delivery note. They stop a form the API would refuse
 * before it is sent; the API checks everything again (what is left to plan may have changed).
 * Factories only (nothing made on import), so an app that plans no tranche bundles none of it.
 */
import { formatDateTime } from './format';
import { VALIDATION_MESSAGES } from './messages';
import { addDays } from './shop-clock';
import { toKenyanMsisdn } from './sms';
import { TRANCHE_LIMITS as L, TRANCHE_MESSAGES as TM } from './tranches';
import { z } from './zod';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const text = () => z.string().trim();

/** A line of the order as a form shows it: its words, and how many units this form may take. */
export interface TrancheFormLine {
  /** "200 × Tray of 50 of Acacia from ready stock", as the API names a line. */
  words: string;
  /** Plan: units left to plan (this tranche's own units included when changing it). */
  max: number;
}

export interface TranchePlanValues {
  site: {
    name: string;
    county: string;
    subCounty: string;
    contact: { name: string; phone: string };
  };
  date: string;
  /** Units of each order line, in the order's line order; empty (or 0): not in this tranche. */
  quantities: (number | undefined)[];
}

const quantityOf = (q: number | undefined) => (q === undefined || q === 0 ? undefined : q);

/** The plan (or change) of a tranche: its site, a day from today, and units within what is left. */
export function tranchePlanSchema(lines: TrancheFormLine[], today: string) {
  return z.object({
    site: z.object({
      name: text()
        .min(1, TM.siteRequired)
        .max(L.siteName, `The site's name must be at most ${L.siteName} characters`),
      county: text().min(1, VALIDATION_MESSAGES.countyRequired),
      subCounty: text(),
      contact: z.object({
        name: text()
          .min(1, TM.contactNameRequired)
          .max(L.contactName, `The contact's name must be at most ${L.contactName} characters`),
        phone: text().refine((v) => !!toKenyanMsisdn(v), TM.contactPhone),
      }),
    }),
    date: z
      .string()
      .regex(DAY, "The tranche's date must be a day written YYYY-MM-DD")
      .refine((d) => d >= today, TM.datePast)
      .refine((d) => d <= addDays(today, L.daysAhead), TM.dateTooFar),
    quantities: z.array(z.number().optional()).superRefine((quantities, ctx) => {
      // Here, not on the whole form, so that it is checked beside the site's own errors.
      let any = false;
      quantities.forEach((raw, i) => {
        const q = quantityOf(raw);
        if (q === undefined) return;
        any = true;
        const line = lines[i];
        if (!Number.isInteger(q) || q < 1 || q > L.lineQuantity)
          ctx.addIssue({ code: 'custom', message: TM.lineQuantity, path: [i] });
        else if (q > (line?.max ?? 0))
          ctx.addIssue({
            code: 'custom',
            message: `${line?.words ?? 'This line'}: at most ${(line?.max ?? 0).toLocaleString('en-US')} left to plan`,
            path: [i],
          });
      });
      if (!any) ctx.addIssue({ code: 'custom', message: TM.linesRequired });
    }),
  });
}

export interface SignedNoteValues {
  signedBy: string;
  /** As a datetime-local field holds it: the clerk's local time, to the minute. */
  signedAt: string;
  lines: { delivered?: number; shortReason: string }[];
}

/** A `datetime-local` value of an instant, in this device's time zone. */
export function localDateTime(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const MINUTE = 60_000;

/**
 * The signed note: who signed, when (not in the future beyond a phone's clock, not before the
 * load left), and what arrived of each line of the load (at most what left; a short line's reason).
 * `lines[i].max` is what left of the load's line i.
 */
export function signedNoteSchema(
  lines: TrancheFormLine[],
  dispatchedAt: string | null,
  now: () => number = Date.now,
) {
  const delivered = `delivered must be a whole number of units, from 0 to ${L.lineQuantity.toLocaleString('en-US')}`;
  return z.object({
    signedBy: text()
      .min(1, TM.signedByRequired)
      .max(L.signedBy, `Who signed must be at most ${L.signedBy} characters`),
    signedAt: z
      .string()
      .refine((v) => !Number.isNaN(new Date(v).getTime()), 'When the note was signed is required')
      .refine(
        (v) => new Date(v).getTime() <= now() + L.clockSkewMinutes * MINUTE,
        TM.signedAtFuture,
      )
      .refine(
        // The field holds minutes: the minute the load left is after it left.
        (v) => !dispatchedAt || new Date(v).getTime() + MINUTE > new Date(dispatchedAt).getTime(),
        `The note cannot be signed before the load left (${formatDateTime(dispatchedAt)})`,
      ),
    lines: z
      .array(
        z.object({
          delivered: z.number().optional(),
          shortReason: text().max(
            L.shortReason,
            `The reason must be at most ${L.shortReason} characters`,
          ),
        }),
      )
      // Here, not on the whole form, so that it is checked beside who signed and when.
      .superRefine((given, ctx) => {
        given.forEach((line, i) => {
          const sent = lines[i]?.max ?? 0;
          if (
            line.delivered === undefined ||
            !Number.isInteger(line.delivered) ||
            line.delivered < 0
          )
            ctx.addIssue({ code: 'custom', message: delivered, path: [i, 'delivered'] });
          else if (line.delivered > sent)
            ctx.addIssue({
              code: 'custom',
              message: TM.deliveredTooMany(lines[i]?.words ?? 'This line', sent),
              path: [i, 'delivered'],
            });
          else if (line.delivered < sent && !line.shortReason.trim())
            ctx.addIssue({
              code: 'custom',
              message: TM.shortReasonRequired,
              path: [i, 'shortReason'],
            });
        });
      }),
  });
}

/**
 * When the note was signed, as the API takes it: the chosen minute, or the moment the load left
 * when that is later in the same minute (the field cannot say seconds).
 */
export function signedAtInstant(value: string, dispatchedAt: string | null): string {
  const chosen = new Date(value).getTime();
  const left = dispatchedAt ? new Date(dispatchedAt).getTime() : 0;
  return new Date(Math.max(chosen, left)).toISOString();
}

/** An order line in words, as the API's messages name it: "200 × Tray of 50 of Acacia from ready stock". */
export function trancheLineWords(
  line: { productName: string; unitName: string; batchId: string | null },
  units: number,
): string {
  const from = line.batchId ? 'from the batch' : 'from ready stock';
  return `${units.toLocaleString('en-US')} × ${line.unitName} of ${line.productName} ${from}`;
}

/** The key an order line is matched by across the tranche views: its product, unit and source. */
export const trancheLineKey = (line: {
  productId: string;
  unitId: string;
  batchId?: string | null;
}) => `${line.productId}:${line.unitId}:${line.batchId ?? ''}`.toLowerCase();
