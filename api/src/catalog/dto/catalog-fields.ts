/**
 * Field decorators of the catalog DTOs. Each field is checked by one rule that names its first
 * problem, with the rules and messages of shared-contracts' catalog forms, so a request's error reads
 * exactly like the back office's form, and a multipart text (`'1200'`, `'true'`) is read the way the
 * form schema reads it.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';
import {
  CATALOG_MESSAGES,
  OBJECT_ID_PATTERN,
  readBooleanInput,
  readItemClassCodeInput,
  readNumberInput,
  readTaxTypeInput,
  TAX_MESSAGES,
  TAX_TYPES,
  wholeNumberProblem,
  type WholeNumberRule,
} from '@spc/shared-contracts';
import { trim } from '../../common/validation-decorators';

type Problem = (value: unknown, object: object) => string | undefined;

/** One validation whose message is the first problem `problem` finds. */
function Check(name: string, problem: Problem) {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        problem(value, args?.object ?? {}) === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        problem(args?.value, args?.object ?? {}) ?? `${args?.property} is not valid`,
    },
  });
}

interface FieldOptions {
  optional?: boolean;
}

function docs(optional: boolean | undefined, options: ApiPropertyOptions) {
  return optional ? ApiPropertyOptional(options) : ApiProperty(options);
}

/** A required (or, with `optional`, present-means-not-empty) trimmed text of at most `max`. */
export function TextField(
  max: number,
  requiredMessage: string,
  label: string,
  example: string,
  { optional }: FieldOptions = {},
) {
  return applyDecorators(
    // Present means not blank (it is trimmed first), optional or not.
    docs(optional, { type: 'string', minLength: 1, maxLength: max, pattern: '\\S', example }),
    trim,
    ...(optional ? [IsOptional()] : []),
    Check('text', (value) => {
      if (typeof value !== 'string' || value === '') return requiredMessage;
      if (value.length > max) return `${label} must be at most ${max} characters`;
      return undefined;
    }),
  );
}

/** A whole number (KES or a count) given as a number or as its text. */
export function WholeNumberField(
  rule: WholeNumberRule,
  example: number,
  { optional, description }: FieldOptions & { description?: string } = {},
) {
  return applyDecorators(
    docs(optional, { type: 'integer', minimum: rule.min, maximum: rule.max, example, description }),
    Transform(({ value }) => {
      const n = readNumberInput(value);
      return n !== undefined && Number.isInteger(n) ? n + 0 : value;
    }),
    ...(optional ? [IsOptional()] : []),
    Check('wholeNumber', (value) => wholeNumberProblem(value, rule)),
  );
}

/**
 * `offerPrice`: checked only when the product is (or, on an update that leaves `onOffer` out, may
 * be) on offer, and then below the price when the price is in the same request.
 */
export function OfferPriceField(rule: WholeNumberRule, checkWhen: (dto: OfferShape) => boolean) {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: rule.min,
      example: 300,
      description: 'Required when onOffer is true, and then below price; ignored otherwise',
    }),
    Transform(({ value }) => {
      const n = readNumberInput(value);
      return n !== undefined && Number.isInteger(n) ? n + 0 : value;
    }),
    ValidateIf((dto: OfferShape) => checkWhen(dto)),
    Check('offerPrice', (value, dto) => {
      const problem = wholeNumberProblem(value, rule);
      if (problem) return problem;
      const price = (dto as OfferShape).price;
      if (typeof price === 'number' && typeof value === 'number' && value >= price) {
        return CATALOG_MESSAGES.offerBelowPrice;
      }
      return undefined;
    }),
  );
}

export interface OfferShape {
  price?: unknown;
  onOffer?: unknown;
  offerPrice?: unknown;
}

/** `true`/`false` (or their text, as a multipart form sends them). */
export function OnOfferField() {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'boolean',
      default: false,
      description: "'true' or 'false' in a multipart form",
    }),
    Transform(({ value }) => {
      const flag = readBooleanInput(value);
      return flag === null ? value : flag;
    }),
    IsOptional(),
    Check('onOffer', (value) =>
      typeof value === 'boolean' ? undefined : CATALOG_MESSAGES.onOfferInvalid,
    ),
  );
}

/** The id of an existing category (existence is the service's check). */
export function CategoryIdField(requiredMessage: string, { optional }: FieldOptions = {}) {
  return applyDecorators(
    docs(optional, {
      type: 'string',
      example: '665f1c2b9d3e4a0012345678',
      pattern: OBJECT_ID_PATTERN.source,
    }),
    Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)),
    ...(optional ? [IsOptional()] : []),
    Check('categoryId', (value) => {
      if (typeof value !== 'string' || value === '') return requiredMessage;
      if (!OBJECT_ID_PATTERN.test(value)) return CATALOG_MESSAGES.categoryInvalid;
      return undefined;
    }),
  );
}

/** An optional query number: empty means absent. */
export function QueryWholeNumber(name: string, description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0, description }),
    Transform(({ value }) => {
      const n = readNumberInput(value);
      return n === undefined ? undefined : Number.isInteger(n) ? n + 0 : value;
    }),
    IsOptional(),
    Check(name, (value) => {
      if (typeof value !== 'number') return `${name} must be a whole number of shillings`;
      if (value < 0) return `${name} cannot be negative`;
      return undefined;
    }),
  );
}

/**
 * A product's KRA tax type (multipart text): `A`–`E`, or empty for the shop's default (read as
 * null); left out, it stays (an update) or is the shop's default (a new product).
 */
export function TaxTypeField() {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      enum: [...TAX_TYPES, ''],
      example: 'B',
      description:
        "KRA eTIMS tax type: A exempt, B 16 %, C zero-rated, D non-VAT, E 8 %; empty: the shop's default tax type (GET /api/tax/settings). Refused when empty and the shop has no default",
    }),
    Transform(({ value }) => {
      const type = readTaxTypeInput(value);
      return type === false ? value : type;
    }),
    IsOptional(), // null (sent empty) is the shop's default
    Check('taxType', (value) => (readTaxTypeInput(value) ? undefined : TAX_MESSAGES.taxType)),
  );
}

/** KRA's item classification code (multipart text): 8 or 10 digits, or empty for none (null). */
export function ItemClassCodeField() {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      pattern: '^([0-9]{8}|[0-9]{10})?$',
      example: '5059690800',
      description:
        "KRA's item classification code (the code list of eTIMS item classes): 8 or 10 digits; empty: none",
    }),
    Transform(({ value }) => {
      const code = readItemClassCodeInput(value);
      return code === false ? value : code;
    }),
    IsOptional(),
    Check('itemClassCode', (value) =>
      readItemClassCodeInput(value) ? undefined : TAX_MESSAGES.itemClassCode,
    ),
  );
}
