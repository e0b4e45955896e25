/**
 * The product form's sale units checked with zod (issue 29): the API's check of `units` and the
 * back office's form share it. Kept apart from sale-units.ts so the storefront's pricing of a cart
 * line (priceUnit) brings no zod into its first load.
 */
import { z } from './zod';
import { OBJECT_ID_PATTERN } from './constants';
import { PRICE_RULE, wholeNumberProblem, type WholeNumberRule } from './catalog-forms';
import { SALE_UNIT_LIMITS, SALE_UNIT_MESSAGES, type PriceTier } from './sale-units';
import { readTaxTypeInput, TAX_MESSAGES, type TaxType } from './tax';

const rule = (label: string, min: number, max: number, tooSmall: string): WholeNumberRule => ({
  required: `${label} is required`,
  notNumber: `${label} must be a number`,
  notWhole: `${label} must be a whole number`,
  min,
  tooSmall,
  max,
  tooLarge: `${label} must be at most ${max.toLocaleString('en-US')}`,
});

export const SEEDLINGS_RULE = rule(
  'Seedlings per unit',
  1,
  SALE_UNIT_LIMITS.seedlingsMax,
  'A unit must hold at least 1 seedling',
);
export const UNIT_MIN_RULE = rule(
  'Minimum quantity',
  1,
  SALE_UNIT_LIMITS.quantityMax,
  'Minimum quantity must be at least 1',
);
export const UNIT_STEP_RULE = rule(
  'Step',
  1,
  SALE_UNIT_LIMITS.quantityMax,
  'Step must be at least 1',
);
export const TIER_FROM_RULE = rule(
  'Tier quantity',
  2,
  SALE_UNIT_LIMITS.quantityMax,
  SALE_UNIT_MESSAGES.tierFromTwo,
);
const UNIT_PRICE_RULE: WholeNumberRule = { ...PRICE_RULE, tooSmall: 'Price must be more than 0' };
const UNIT_OFFER_RULE: WholeNumberRule = {
  ...PRICE_RULE,
  required: 'Offer price is required',
  notNumber: 'Offer price must be a number',
  min: 0,
  tooSmall: 'Offer price cannot be below 0',
};

const optionalWhole = (r: WholeNumberRule, fallback?: number) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (fallback !== undefined && (value === undefined || value === null || value === ''))
        return fallback;
      const problem = wholeNumberProblem(value, r);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return Number(value);
    });

/** A unit's own tax type: left out or empty, none (the product's applies); else one of A–E. */
const unitTaxType = z
  .unknown()
  .optional()
  .transform((value, ctx): TaxType | null => {
    const type = readTaxTypeInput(value);
    if (type === false) {
      ctx.addIssue({ code: 'custom', message: TAX_MESSAGES.taxType });
      return z.NEVER;
    }
    return type ?? null;
  });

export const priceTierSchema = z.object({
  minQuantity: optionalWhole(TIER_FROM_RULE),
  price: optionalWhole(UNIT_PRICE_RULE),
});

/**
 * One unit as a form sends it. `_id` keeps an existing unit (its open orders keep their prices as
 * placed anyway); without it the unit is new. The default unit's (the first's) `price` and
 * `offerPrice` may be left out: they are the product's `price` and offer.
 */
export const saleUnitInputSchema = z.object({
  _id: z
    .string()
    .regex(OBJECT_ID_PATTERN, SALE_UNIT_MESSAGES.unitId)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  name: z
    .string({ error: SALE_UNIT_MESSAGES.nameRequired })
    .trim()
    .min(1, SALE_UNIT_MESSAGES.nameRequired)
    .max(SALE_UNIT_LIMITS.name, `Unit name must be at most ${SALE_UNIT_LIMITS.name} characters`),
  seedlings: optionalWhole(SEEDLINGS_RULE),
  price: z.unknown().optional(),
  offerPrice: optionalWhole(UNIT_OFFER_RULE, 0),
  sku: z
    .string()
    .trim()
    .max(SALE_UNIT_LIMITS.sku, `SKU must be at most ${SALE_UNIT_LIMITS.sku} characters`)
    .optional()
    .default(''),
  minQuantity: optionalWhole(UNIT_MIN_RULE, 1),
  step: optionalWhole(UNIT_STEP_RULE, 1),
  tiers: z
    .array(priceTierSchema)
    .max(SALE_UNIT_LIMITS.tiersPerUnit, SALE_UNIT_MESSAGES.tooManyTiers)
    .optional()
    .default([]),
  /** The unit's own KRA tax type (a tray taxed apart from its seedlings); null: the product's. */
  taxType: unitTaxType,
});

export type SaleUnitInput = z.input<typeof saleUnitInputSchema>;
export type SaleUnitPayload = Omit<z.output<typeof saleUnitInputSchema>, 'price'> & {
  price: number;
};

/** The problems of one unit's tiers (ordered, not overlapping, each cheaper), by tier index. */
export function tierProblems(
  basePrice: number,
  tiers: PriceTier[],
): { index: number; field: 'minQuantity' | 'price'; message: string }[] {
  const problems: { index: number; field: 'minQuantity' | 'price'; message: string }[] = [];
  let before = { minQuantity: 1, price: basePrice };
  tiers.forEach((tier, index) => {
    if (tier.minQuantity === before.minQuantity && index > 0)
      problems.push({ index, field: 'minQuantity', message: SALE_UNIT_MESSAGES.tiersOverlap });
    else if (tier.minQuantity < before.minQuantity)
      problems.push({ index, field: 'minQuantity', message: SALE_UNIT_MESSAGES.tiersOrder });
    else if (tier.price >= before.price)
      problems.push({ index, field: 'price', message: SALE_UNIT_MESSAGES.tierCheaper });
    before = tier;
  });
  return problems;
}

/**
 * A product form's units, checked as a whole: at least one, the first the single seedling, names
 * unique, each unit's price (the default's is `defaultPrice`), offer and tiers consistent. The
 * output units carry their prices; `_id` is left for the API to keep or assign.
 */
export function saleUnitsSchema(defaultPrice: number, defaultOffer: number) {
  return z
    .array(saleUnitInputSchema, { error: SALE_UNIT_MESSAGES.unitsInvalid })
    .min(1, SALE_UNIT_MESSAGES.unitsRequired)
    .max(SALE_UNIT_LIMITS.unitsPerProduct, SALE_UNIT_MESSAGES.tooManyUnits)
    .transform((units, ctx) => {
      const out: SaleUnitPayload[] = [];
      const names = new Set<string>();
      units.forEach((unit, i) => {
        const at = (...path: (string | number)[]) => [i, ...path];
        if (i === 0 && unit.seedlings !== 1)
          ctx.addIssue({
            code: 'custom',
            path: at('seedlings'),
            message: SALE_UNIT_MESSAGES.defaultIsSingle,
          });
        const key = unit.name.toLowerCase();
        if (names.has(key))
          ctx.addIssue({ code: 'custom', path: at('name'), message: SALE_UNIT_MESSAGES.nameTaken });
        names.add(key);
        let price = defaultPrice;
        let offerPrice = unit.offerPrice;
        if (i === 0) offerPrice = defaultOffer;
        else {
          const problem = wholeNumberProblem(unit.price, UNIT_PRICE_RULE);
          if (problem) {
            ctx.addIssue({ code: 'custom', path: at('price'), message: problem });
            return;
          }
          price = Number(unit.price);
          if (offerPrice >= price)
            ctx.addIssue({
              code: 'custom',
              path: at('offerPrice'),
              message: SALE_UNIT_MESSAGES.offerBelowPrice,
            });
        }
        for (const p of tierProblems(price, unit.tiers))
          ctx.addIssue({ code: 'custom', path: at('tiers', p.index, p.field), message: p.message });
        out.push({ ...unit, price, offerPrice });
      });
      return out;
    });
}
