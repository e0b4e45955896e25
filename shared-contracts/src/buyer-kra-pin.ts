/**
 * A buyer's KRA PIN (issue 45), given at checkout or in the profile so the receipt is a tax invoice
 * in their name. Its own module: the checkout's and the profile's forms take it without each other.
 */
import { z } from './zod';
import { KRA_PIN_MESSAGE, KRA_PIN_PATTERN, normaliseKraPin } from './kra-pin';

/** The KRA PIN rule, or nothing (empty is none). */
const PIN_OR_NONE = new RegExp(`^(?:${KRA_PIN_PATTERN.source.slice(1, -1)})?$`);

/**
 * Trimmed and upper-cased (`normaliseKraPin`), then of the organisations' form (`KRA_PIN_PATTERN`,
 * the message `KRA_PIN_MESSAGE`); empty is none. Changed in place (as `trim()` does) and checked
 * by a pattern: no transform or refinement, so the profile's chunk takes no more of zod.
 */
export const buyerKraPinSchema = z
  .string({ error: KRA_PIN_MESSAGE })
  .overwrite(normaliseKraPin)
  .regex(PIN_OR_NONE, KRA_PIN_MESSAGE);
