/**
 * A KRA PIN: A (a person) or P (any other body), 9 digits, a letter: `P051234567X`. The API trims
 * it and upper-cases it before it is checked (`p051234567x` is that PIN); blanks inside it are refused.
 * An organisation's (issue 42) and a buyer's on an order or a profile (issue 45) follow it.
 */
export const KRA_PIN_PATTERN = /^[AP]\d{9}[A-Z]$/;
export const KRA_PIN_MESSAGE =
  'A KRA PIN is the letter A or P, 9 digits and a letter, without spaces (for example P051234567X)';

/** A KRA PIN as stored and compared: without surrounding blanks, in upper case. */
export function normaliseKraPin(typed: string): string {
  return typed.trim().toUpperCase();
}
