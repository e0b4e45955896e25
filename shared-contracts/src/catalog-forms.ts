/**
 * The catalog forms of the back office (product, offer, stock, category) with the spec's messages.
 * Number fields accept what a form or a multipart payload carries (a number or a numeric string), so
 * one rule serves the client's form and the API's DTOs alike (a test in the API feeds both the same
 * samples). Money is whole Kenyan shillings.
 */
import { z } from './zod';
import { OBJECT_ID_PATTERN } from './constants';
import { VALIDATION_MESSAGES as M } from './messages';
import { readItemClassCodeInput, readTaxTypeInput, TAX_MESSAGES } from './tax';

/** Upper bounds of catalog fields. */
export const CATALOG_LIMITS = {
  productName: 120,
  productDescription: 2000,
  categoryName: 60,
  categoryDescription: 500,
  /** KES; far above anything a nursery sells, low enough to stay an exact integer everywhere. */
  priceMax: 10_000_000,
  quantityMax: 1_000_000,
  searchMaxLength: 100,
} as const;

/** Catalog messages the specs leave open, worded for the person who has to act on them. */
export const CATALOG_MESSAGES = {
  offerBelowPrice: 'Offer Price must be less than the price',
  categoryInvalid: 'Category is not a valid id',
  categoryNotFound: 'Category not found',
  categoryNameTaken: 'A category with this name already exists',
  onOfferInvalid: 'onOffer must be true or false',
} as const;

/** How a whole-number field is checked, and what is said for each problem (first problem wins). */
export interface WholeNumberRule {
  required: string;
  notNumber: string;
  notWhole: string;
  min: number;
  tooSmall: string;
  max: number;
  tooLarge: string;
}

const kes = (n: number) => n.toLocaleString('en-US');

export const PRICE_RULE: WholeNumberRule = {
  required: M.priceRequired,
  notNumber: M.priceNumber,
  notWhole: 'Price must be a whole number of shillings',
  min: 1,
  tooSmall: 'Price must be more than 0',
  max: CATALOG_LIMITS.priceMax,
  tooLarge: `Price must be at most KES ${kes(CATALOG_LIMITS.priceMax)}`,
};

export const OFFER_PRICE_RULE: WholeNumberRule = {
  required: M.offerPriceRequired,
  notNumber: M.offerPriceNumber,
  notWhole: 'Offer Price must be a whole number of shillings',
  min: 1,
  tooSmall: 'Offer Price must be more than 0',
  max: CATALOG_LIMITS.priceMax,
  tooLarge: `Offer Price must be at most KES ${kes(CATALOG_LIMITS.priceMax)}`,
};

/** The 'Create an Offer' modal says 'offerPrice is required'. */
export const OFFER_MODAL_RULE: WholeNumberRule = {
  ...OFFER_PRICE_RULE,
  required: M.offerModalOfferPriceRequired,
};

export const QUANTITY_RULE: WholeNumberRule = {
  required: M.quantityRequired,
  notNumber: M.quantityNumber,
  notWhole: 'Quantity must be a whole number',
  min: 0,
  tooSmall: 'Quantity cannot be negative',
  max: CATALOG_LIMITS.quantityMax,
  tooLarge: `Quantity must be at most ${kes(CATALOG_LIMITS.quantityMax)}`,
};

/** Marking a product in stock: zero is what check-stock is for. */
export const RESTOCK_QUANTITY_RULE: WholeNumberRule = {
  ...QUANTITY_RULE,
  min: 1,
  tooSmall: 'Quantity must be more than 0',
};

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * Reads a number as a form or a payload carries it: `undefined` when empty (missing, null, blank
 * text), `NaN` when it is not a plain decimal number (`'12abc'`, `'0x10'`, `true`, an object).
 */
export function readNumberInput(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    return NUMERIC_TEXT.test(text) ? Number(text) : Number.NaN;
  }
  return Number.NaN;
}

/** The first problem with a whole-number input, or undefined when it is acceptable. */
export function wholeNumberProblem(value: unknown, rule: WholeNumberRule): string | undefined {
  const n = readNumberInput(value);
  if (n === undefined) return rule.required;
  if (!Number.isFinite(n)) return rule.notNumber;
  if (!Number.isInteger(n)) return rule.notWhole;
  if (n < rule.min) return rule.tooSmall;
  if (n > rule.max) return rule.tooLarge;
  return undefined;
}

/** `true`/`false` or their text; `undefined` when empty, `null` when it is anything else. */
export function readBooleanInput(value: unknown): boolean | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

/** A whole number checked by `rule`; the output is the number. */
export function wholeNumber(rule: WholeNumberRule) {
  return z.unknown().transform((value, ctx) => {
    const problem = wholeNumberProblem(value, rule);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return (readNumberInput(value) as number) + 0; // + 0 turns -0 into 0
  });
}

const onOfferField = z.unknown().transform((value, ctx) => {
  const flag = readBooleanInput(value);
  if (flag === null) {
    ctx.addIssue({ code: 'custom', message: CATALOG_MESSAGES.onOfferInvalid });
    return z.NEVER;
  }
  return flag ?? false;
});

/**
 * An optional field read by `read` (left out: undefined, empty: null) and refused with `message`
 * when `read` says false.
 */
function optionalCode<T>(read: (value: unknown) => T | null | undefined | false, message: string) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const code = read(value);
      if (code === false) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return code;
    });
}

const text = (max: number, requiredMessage: string, label: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * Back office: Add/Update Product. Accepts the form's values or the multipart payload's texts
 * (`'1200'`, `'true'`). When `onOffer`, `offerPrice` is required and below the price; otherwise it is
 * ignored and the output carries 0. `initialPrice` is accepted and ignored: the API keeps it equal to
 * the price. `taxType` and `itemClassCode` sent empty are null (the shop default, none).
 */
export const productFormSchema = z
  .object({
    productName: text(CATALOG_LIMITS.productName, M.productNameRequired, 'Product Name'),
    productDescription: text(
      CATALOG_LIMITS.productDescription,
      M.descriptionRequired,
      'Description',
    ),
    price: wholeNumber(PRICE_RULE),
    initialPrice: z.unknown().optional(),
    productQuantity: wholeNumber(QUANTITY_RULE),
    category: z
      .string({ error: M.categoryRequired })
      .trim()
      .min(1, M.categoryRequired)
      .regex(OBJECT_ID_PATTERN, CATALOG_MESSAGES.categoryInvalid),
    onOffer: onOfferField,
    offerPrice: z.unknown().optional(),
    /** KRA tax type A–E; empty: the shop default. */
    taxType: optionalCode(readTaxTypeInput, TAX_MESSAGES.taxType),
    /** KRA item classification code (8 or 10 digits); empty: none. */
    itemClassCode: optionalCode(readItemClassCodeInput, TAX_MESSAGES.itemClassCode),
  })
  .transform(({ initialPrice: _ignored, ...form }, ctx) => {
    if (!form.onOffer) return { ...form, offerPrice: 0 };
    const problem = wholeNumberProblem(form.offerPrice, OFFER_PRICE_RULE);
    const offerPrice = readNumberInput(form.offerPrice) as number;
    if (problem || offerPrice >= form.price) {
      ctx.addIssue({
        code: 'custom',
        path: ['offerPrice'],
        message: problem ?? CATALOG_MESSAGES.offerBelowPrice,
      });
      return z.NEVER;
    }
    return { ...form, offerPrice };
  });

/** `PATCH /api/products/apply-offer/:id` body; the server also checks it is below the price. */
export const applyOfferPayloadSchema = z.object({ offerPrice: wholeNumber(OFFER_MODAL_RULE) });

/** The 'Create an Offer for this product' modal, which knows the product's price. */
export function offerFormSchema(price: number) {
  return applyOfferPayloadSchema.refine((v) => v.offerPrice < price, {
    message: CATALOG_MESSAGES.offerBelowPrice,
    path: ['offerPrice'],
  });
}

/** `PATCH /api/products/update-stock/:id` body: the new stock count, more than 0. */
export const updateStockPayloadSchema = z.object({
  productQuantity: wholeNumber(RESTOCK_QUANTITY_RULE),
});

/** Back office: Add/Edit Category (`POST /api/categories`, `PUT /api/categories/update/:id`). */
export const categoryFormSchema = z.object({
  name: text(CATALOG_LIMITS.categoryName, M.categoryRequired, 'Category name'),
  description: text(CATALOG_LIMITS.categoryDescription, M.descriptionRequired, 'Description'),
});

export type ProductFormInput = z.input<typeof productFormSchema>;
export type ProductPayload = z.output<typeof productFormSchema>;
export type ApplyOfferPayload = z.output<typeof applyOfferPayloadSchema>;
export type UpdateStockPayload = z.output<typeof updateStockPayloadSchema>;
export type CategoryForm = z.infer<typeof categoryFormSchema>;
