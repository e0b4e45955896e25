import { ValidateBy, type ValidationOptions } from 'class-validator';

/** The dates the API takes for days: from 2000 to 2099 (anything else is a typo or a probe). */
export const FIRST_DAY = '2000-01-01';
export const LAST_DAY = '2099-12-31';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD between FIRST_DAY and LAST_DAY (2026-02-31 is not). */
export function isCalendarDay(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    value >= FIRST_DAY &&
    value <= LAST_DAY
  );
}

/** A day as YYYY-MM-DD that exists on the calendar, between 2000 and 2099. */
export function IsCalendarDay(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isCalendarDay', validator: { validate: (value) => isCalendarDay(value) } },
    options,
  );
}
