/**
 * Tax per product (issue 45): KRA's tax types as eTIMS codes them (A–E), the item classification
 * code's form, which type a sale unit is taxed at, and the tax in a tax-inclusive amount. The API
 * checks products with these, the back office edits them, and documents and eTIMS take their tax
 * breakdown from `taxBreakdown`. No zod here: documents may bring it into a first load.
 */

/** KRA's tax type codes, in KRA's order. */
export const TAX_TYPES = ['A', 'B', 'C', 'D', 'E'] as const;
export type TaxType = (typeof TAX_TYPES)[number];

export interface TaxTypeInfo {
  code: TaxType;
  /** What a person reads: "Standard rate 16 %". */
  label: string;
  /** Percent, e.g. 16. */
  rate: number;
}

/** Each type's label and rate (KRA's code list "Tax Type": A-Exempt, B-16%, C-0%, D-Non-VAT, E-8%). */
export const TAX_TYPE_INFO: Readonly<Record<TaxType, TaxTypeInfo>> = {
  A: { code: 'A', label: 'Exempt', rate: 0 },
  B: { code: 'B', label: 'Standard rate 16 %', rate: 16 },
  C: { code: 'C', label: 'Zero-rated 0 %', rate: 0 },
  D: { code: 'D', label: 'Non-VAT', rate: 0 },
  E: { code: 'E', label: 'Reduced rate 8 %', rate: 8 },
};

/**
 * KRA's item classification codes are digits (the code list's `itemClsCd`, at most 10
 * characters): 8 digits for a class ("14111400"), 10 for the finest level items are registered
 * with ("5059690800"). Either is accepted; the list itself is KRA's and is not copied here.
 */
export const ITEM_CLASS_CODE_PATTERN = /^([0-9]{8}|[0-9]{10})$/;

export const TAX_MESSAGES = {
  taxType: 'Tax type must be one of A, B, C, D, E (KRA eTIMS tax types)',
  itemClassCode: "Item classification code must be KRA's code: 8 or 10 digits",
  noDefault:
    'Choose a tax type for this product: the shop has no default tax type (set one under tax settings)',
  defaultTaxType: 'The default tax type must be one of A, B, C, D, E, or null for none',
} as const;

/** "B · Standard rate 16 %": a type as the select and the documents name it. */
export function taxTypeText(type: TaxType): string {
  return `${type} · ${TAX_TYPE_INFO[type].label}`;
}

export function isTaxType(value: unknown): value is TaxType {
  return typeof value === 'string' && (TAX_TYPES as readonly string[]).includes(value);
}

/**
 * A tax type as a form or a payload carries it: `undefined` when left out, `null` when empty (the
 * shop default), the code when it is exactly one of A–E, else `false` ("b", " B" are not codes).
 */
export function readTaxTypeInput(value: unknown): TaxType | null | undefined | false {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  return isTaxType(value) ? value : false;
}

/**
 * An item classification code as a form or a payload carries it: `undefined` when left out, `null`
 * when empty (none), the code when it has KRA's form (digits only, nothing around them), else
 * `false`.
 */
export function readItemClassCodeInput(value: unknown): string | null | undefined | false {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  return typeof value === 'string' && ITEM_CLASS_CODE_PATTERN.test(value) ? value : false;
}

/**
 * The type a sale unit is taxed at: its own, else its product's, else the shop's default; null
 * when none of them is set.
 */
export function effectiveTaxType(
  unitType: TaxType | null | undefined,
  productType: TaxType | null | undefined,
  shopDefault: TaxType | null | undefined,
): TaxType | null {
  return unitType ?? productType ?? shopDefault ?? null;
}

/** One amount taxed at one type: a document line, tax included. */
export interface TaxLine {
  /** KES, tax included (a credit note's lines may be negative). */
  amount: number;
  taxType: TaxType;
}

/** The tax of one type in a set of lines. KES, to the cent. */
export interface TaxTypeTotal {
  taxType: TaxType;
  label: string;
  rate: number;
  /** The lines' amounts, tax included. */
  amount: number;
  /** `amount` less `tax`. */
  taxable: number;
  tax: number;
}

export interface TaxBreakdown {
  /** Every type, zero where no line has it (eTIMS sends all five). */
  byType: Record<TaxType, TaxTypeTotal>;
  /** The types the lines have, in KRA's order: what a document prints. */
  types: TaxTypeTotal[];
  total: { amount: number; taxable: number; tax: number };
}

const toCents = (kes: number) => Math.round(Number((kes * 100).toFixed(6)));
const toKes = (cents: number) => cents / 100 + 0; // + 0 turns -0 into 0

/** `n / d` rounded to the nearest whole number, halves away from zero (d > 0). */
function divideRounded(n: number, d: number): number {
  const q = Math.floor((2 * Math.abs(n) + d) / (2 * d));
  return n < 0 ? -q : q;
}

/**
 * The tax in `cents` (tax included) at `rate` percent: cents × rate / (100 + rate), to the cent,
 * halves away from zero. Rates are whole percents, so the sum is exact in integers.
 */
function taxInCents(cents: number, rate: number): number {
  return rate === 0 ? 0 : divideRounded(cents * rate, 100 + rate);
}

/** The tax in one tax-inclusive amount of one type (KES, to the cent). */
export function taxOf(amount: number, taxType: TaxType): number {
  if (!Number.isFinite(amount)) throw new RangeError(`Not an amount: ${amount}`);
  if (!isTaxType(taxType)) throw new RangeError(`Not a KRA tax type: ${String(taxType)}`);
  return toKes(taxInCents(toCents(amount), TAX_TYPE_INFO[taxType].rate));
}

/**
 * The tax breakdown of tax-inclusive lines: per type, the amount, the tax in it (amount × rate /
 * (100 + rate), rounded to the cent, halves away from zero) and the taxable amount (amount − tax);
 * and the totals. Prices stay as shown: the tax is inside them. Each type's tax is worked out once
 * on the sum of its lines (as the header of a KRA sale carries it), so the totals never drift by a
 * cent a line.
 */
export function taxBreakdown(lines: readonly TaxLine[]): TaxBreakdown {
  const cents = Object.fromEntries(TAX_TYPES.map((t) => [t, 0])) as Record<TaxType, number>;
  const present = new Set<TaxType>();
  for (const line of lines) {
    if (!isTaxType(line.taxType)) throw new RangeError(`Not a KRA tax type: ${line.taxType}`);
    if (!Number.isFinite(line.amount)) throw new RangeError(`Not an amount: ${line.amount}`);
    cents[line.taxType] += toCents(line.amount);
    present.add(line.taxType);
  }
  const total = { amount: 0, taxable: 0, tax: 0 };
  const byType = {} as Record<TaxType, TaxTypeTotal>;
  for (const taxType of TAX_TYPES) {
    const { label, rate } = TAX_TYPE_INFO[taxType];
    const amount = cents[taxType];
    const tax = taxInCents(amount, rate);
    byType[taxType] = {
      taxType,
      label,
      rate,
      amount: toKes(amount),
      taxable: toKes(amount - tax),
      tax: toKes(tax),
    };
    total.amount += amount;
    total.taxable += amount - tax;
    total.tax += tax;
  }
  return {
    byType,
    types: TAX_TYPES.filter((t) => present.has(t)).map((t) => byType[t]),
    total: { amount: toKes(total.amount), taxable: toKes(total.taxable), tax: toKes(total.tax) },
  };
}
