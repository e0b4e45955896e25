/**
 * Field decorators that carry validation, transformation and the OpenAPI description together, with
 * the messages of shared-contracts, so a DTO reads like the form it mirrors.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { singleLine } from './single-line';
import { canonicalEmail } from './identifiers';
import {
  IsEmail,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  KRA_PIN_MESSAGE,
  KRA_PIN_PATTERN,
  normaliseKraPin,
  PASSWORD_PATTERN,
  PHONE_PATTERN,
  STAFF_PASSWORD_PATTERN,
  PURCHASE_NUMBER_PATTERN,
  TEXT_LIMITS,
  VALIDATION_MESSAGES as M,
} from '@spc/shared-contracts';

/** Text with its surrounding blanks removed before it is checked. */
export const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
/** One line of text: control characters (line breaks included) become a space, then trimmed. */
export const singleLineText = Transform(({ value }) =>
  typeof value === 'string' ? singleLine(value) : value,
);
/**
 * One line of text as `singleLineText` makes it, unless the text as sent is longer than `maxLength`:
 * then it is left as sent and the length check refuses it. The limit counts what the client sent, as
 * OpenAPI states it, not what is left once control characters and repeated blanks are collapsed.
 */
function singleLineTextUpTo(maxLength: number) {
  return Transform(({ value }) =>
    typeof value === 'string' && [...value].length <= maxLength ? singleLine(value) : value,
  );
}
/**
 * What OpenAPI says of a required one-line text: at least one character that is neither blank nor
 * a control character (those become spaces and are trimmed before the text is checked).
 */
export const SINGLE_LINE_TEXT_PATTERN = '[^\\s\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ufeff]';
const trimLower = Transform(({ value }) =>
  typeof value === 'string' ? canonicalEmail(value) : value,
);

interface FieldOptions {
  optional?: boolean;
  requiredMessage?: string;
  description?: string;
}

interface PhoneOptions extends FieldOptions {
  /** The numbers taken (PHONE_PATTERN: any phone); the OpenAPI document names it. */
  pattern?: RegExp;
  invalidMessage?: string;
}

function docs(optional: boolean | undefined, options: Parameters<typeof ApiProperty>[0]) {
  return optional ? ApiPropertyOptional(options) : ApiProperty(options);
}

/** Required fields must be non-empty; optional ones may be left out, but not sent blank. */
function presence(optional: boolean | undefined, requiredMessage: string) {
  const notEmpty = IsNotEmpty({ message: requiredMessage });
  return optional ? applyDecorators(IsOptional(), notEmpty) : notEmpty;
}

export function FullNameField({
  optional,
  requiredMessage = M.fullNameRequired,
}: FieldOptions = {}) {
  return applyDecorators(
    docs(optional, {
      example: 'Wanjiku Kamau',
      maxLength: TEXT_LIMITS.fullName,
      pattern: SINGLE_LINE_TEXT_PATTERN,
    }),
    singleLineTextUpTo(TEXT_LIMITS.fullName),
    presence(optional, requiredMessage),
    IsString(),
    MaxLength(TEXT_LIMITS.fullName, {
      message: `Full name must be at most ${TEXT_LIMITS.fullName} characters`,
    }),
  );
}

export function EmailField({
  optional,
  requiredMessage = M.emailRequired,
  invalidMessage = M.emailInvalid,
}: FieldOptions & { invalidMessage?: string } = {}) {
  return applyDecorators(
    docs(optional, {
      example: 'wanjiku@example.co.ke',
      format: 'email',
      maxLength: TEXT_LIMITS.email,
    }),
    trimLower,
    presence(optional, requiredMessage),
    IsString(),
    MaxLength(TEXT_LIMITS.email, { message: invalidMessage }),
    IsEmail({}, { message: invalidMessage }),
  );
}

/**
 * A password being set: the one password rule of both apps and the API (with `staff`, the longer
 * rule of staff and admin passwords; where the role is only known from the account, the service
 * checks that rule too).
 */
export function NewPasswordField({
  requiredMessage = M.passwordRequired,
  description,
  staff = false,
}: FieldOptions & { staff?: boolean } = {}) {
  const pattern = staff ? STAFF_PASSWORD_PATTERN : PASSWORD_PATTERN;
  const message = staff ? M.staffPasswordRule : M.passwordRule;
  return applyDecorators(
    ApiProperty({
      example: staff ? 'Seedling#2026!x' : 'Seedling#2026',
      pattern: pattern.source,
      maxLength: TEXT_LIMITS.password,
      description,
    }),
    IsNotEmpty({ message: requiredMessage }),
    IsString(),
    MaxLength(TEXT_LIMITS.password, { message }),
    Matches(pattern, { message }),
  );
}

/** A password being checked (sign in, current password): only present and bounded. */
export function PasswordField({ requiredMessage = M.passwordRequired }: FieldOptions = {}) {
  return applyDecorators(
    ApiProperty({ example: 'Seedling#2026', maxLength: TEXT_LIMITS.password }),
    IsNotEmpty({ message: requiredMessage }),
    IsString(),
    MaxLength(TEXT_LIMITS.password, { message: M.passwordRule }),
  );
}

export function PhoneField(
  maxLength: number,
  {
    optional,
    requiredMessage = M.phoneRequired,
    pattern = PHONE_PATTERN,
    invalidMessage = M.phoneInvalid,
  }: PhoneOptions = {},
) {
  return applyDecorators(
    docs(optional, { example: '0712345678', maxLength, pattern: pattern.source }),
    trim,
    presence(optional, requiredMessage),
    IsString(),
    MaxLength(maxLength, { message: invalidMessage }),
    Matches(pattern, { message: invalidMessage }),
  );
}

export function OptionalTextField(maxLength: number, label: string, example?: string) {
  return applyDecorators(
    ApiPropertyOptional({ maxLength, example }),
    singleLineTextUpTo(maxLength),
    IsOptional(),
    IsString(),
    MaxLength(maxLength, { message: `${label} must be at most ${maxLength} characters` }),
  );
}

/** An order's purchase number (`SPD` + 8), as people type it: blanks trimmed, letters upper-cased. */
export function PurchaseNumberField(description?: string) {
  return applyDecorators(
    ApiProperty({ example: 'SPD7K3MX9QA', description }),
    Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value)),
    IsNotEmpty({ message: 'Enter your confirmation number' }),
    IsString(),
    Matches(PURCHASE_NUMBER_PATTERN, {
      message: 'A confirmation number looks like SPD followed by 8 letters and digits',
    }),
  );
}

const KRA_PIN_EXAMPLE = 'P051234567X';

/**
 * A KRA PIN: A or P, 9 digits, a letter (`KRA_PIN_PATTERN`), trimmed and upper-cased before it is
 * checked. `optional`: it may be left out (an organisation's edit). `emptyIsNone`: a buyer's PIN on
 * an order or a profile (issue 45), which may also be left out, null, or empty (after trimming) for
 * none; what the field then means is the caller's.
 */
export function KraPinField({
  optional = false,
  emptyIsNone = false,
  description,
}: { optional?: boolean; emptyIsNone?: boolean; description?: string } = {}) {
  const doc = emptyIsNone
    ? {
        type: String,
        nullable: true,
        example: KRA_PIN_EXAMPLE,
        // The rule without its anchors, or nothing; ASCII digits spelled out for generators that
        // read `\d` as any script's digits (the API takes 0-9 alone).
        pattern: `^(|${KRA_PIN_PATTERN.source.slice(1, -1).replace(/\\d/g, '[0-9]')})$`,
        description,
      }
    : { example: KRA_PIN_EXAMPLE, pattern: KRA_PIN_PATTERN.source, description };
  return applyDecorators(
    optional || emptyIsNone ? ApiPropertyOptional(doc) : ApiProperty(doc),
    Transform(({ value }) => (typeof value === 'string' ? normaliseKraPin(value) : value)),
    ...(emptyIsNone
      ? [
          ValidateIf(
            (_: unknown, value: unknown) => value !== undefined && value !== null && value !== '',
          ),
        ]
      : optional
        ? [IsOptional()]
        : []),
    IsString({ message: KRA_PIN_MESSAGE }),
    Matches(KRA_PIN_PATTERN, { message: KRA_PIN_MESSAGE }),
  );
}
