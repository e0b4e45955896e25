/**
 * The county and sub-county fields of every address the shop charges delivery by (orders, a
 * clerk's address change, delivery options, delivery zones). Whatever the spelling typed ("Mombasa
 * County", "mombasa.", full-width letters), the field leaves validation with the location list's
 * own spelling; a name the list does not know is a 400 naming the field, never a place charged as
 * the rest of Kenya.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { TEXT_LIMITS, VALIDATION_MESSAGES as M } from '@spc/shared-contracts';
import { findCounty, findSubCounty, type County } from '@spc/shared-contracts/locations';
import { singleLine } from '../common/single-line';

const MAX = TEXT_LIMITS.county;
const quoted = (text: string) => singleLine(text).slice(0, 60);

const countyOf = (value: unknown): County | undefined =>
  typeof value === 'string' && value.length <= MAX ? findCounty(value) : undefined;

/** Why this county text is refused, or undefined when the list knows it. */
export function countyProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return M.countyRequired;
  return countyOf(value) ? undefined : `${quoted(value)} is not a county of Kenya`;
}

/** Why this sub-county text is refused for that county, or undefined (also when no county is known). */
export function subCountyProblem(value: unknown, county: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return 'Sub-county must be text';
  const c = countyOf(county);
  // A county the list does not know has its own error; a sub-county cannot be judged without it.
  if (!c || (value.length <= MAX && findSubCounty(c, value))) return undefined;
  return `${quoted(value)} is not a sub-county of ${c.name}`;
}

function Check(
  name: string,
  problem: (value: unknown, object: Record<string, unknown>) => string | undefined,
) {
  const of = (args?: ValidationArguments) => (args?.object ?? {}) as Record<string, unknown>;
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => !problem(value, of(args)),
      defaultMessage: (args?: ValidationArguments) =>
        problem(args?.value, of(args)) ?? `${args?.property} is not valid`,
    },
  });
}

/** A county of the location list, stored with the list's spelling. */
export function CountyField(description = 'A county of the Kenyan locations list') {
  return applyDecorators(
    ApiProperty({ type: String, example: 'Kiambu', maxLength: MAX, description }),
    Transform(({ value }: { value: unknown }) => countyOf(value)?.name ?? value),
    Check('kenyanCounty', (value) => countyProblem(value)),
  );
}

/**
 * An optional sub-county of the object's `county`, stored with the list's spelling; blank means
 * none (the whole county).
 */
export function SubCountyField(description = 'A sub-county of that county') {
  return applyDecorators(
    ApiPropertyOptional({ type: String, example: 'Ruiru', maxLength: MAX, description }),
    Transform(({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
      if (typeof value !== 'string') return value;
      if (!value.trim()) return undefined;
      const county = countyOf(obj.county);
      return (county && value.length <= MAX && findSubCounty(county, value)?.name) || value;
    }),
    IsOptional(),
    Check('kenyanSubCounty', (value, object) => subCountyProblem(value, object.county)),
  );
}
