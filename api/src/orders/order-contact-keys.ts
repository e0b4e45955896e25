import { PURCHASE_NUMBER } from '@spc/shared-contracts';

/**
 * The order search's keys (issue 33). Searching a part of a name or phone with a regular expression
 * reads every placed order: on three years of orders it outlasted the database's time limit. Each
 * order instead carries `contactKeys`, written with its contact details (placement, a clerk's edit,
 * the privacy eraser; older orders by the migration), and the search looks its terms up in the index
 * `placement, contactKeys, orderDate, _id` by equality, which every MongoDB-compatible server serves.
 *
 * What a clerk's search finds, therefore:
 * - a name or e-mail by the start of any of its words ("wanj" finds Grace Wanjiku, "grace wanj" too:
 *   every word typed must start a word of the contact), in any case and without accents;
 * - a whole e-mail address;
 * - a phone by its start or its end (at least 3 digits), however either side wrote it: 0712 345 678,
 *   +254 712 345 678 and 712345678 are one number;
 * - a purchase number whole, or by its start (SPD and at least 3 characters of its code).
 * A part in the middle of a word or number ("anjik", "2345") finds nothing.
 */

/** The longest key: a longer word is keyed and searched by its first characters. */
const MAX_KEY = 24;
/** The shortest start of a word that is a key (shorter words are keyed whole). */
const MIN_PREFIX = 2;
/** The shortest start or end of a phone number that is a key. */
const MIN_DIGITS = 3;
/** A purchase number's start names few enough orders from this many characters of its code. */
const MIN_CODE_PREFIX = 3;

export interface ContactFields {
  fullName?: string | null;
  phoneNumber?: string | null;
  email?: string | null;
}

/** Lower-cased words of letters and digits of any script, accents dropped, each at most MAX_KEY. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => [...w].slice(0, MAX_KEY).join(''));
}

/** A phone's digits without the country code or the trunk 0 (07.. and +2547.. are one number). */
export function nationalDigits(text: string): string | null {
  if (!/^[+\d\s().-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '').replace(/^(254|0)/, '');
  return digits.length >= MIN_DIGITS ? digits.slice(0, MAX_KEY) : null;
}

function addPrefixes(keys: Set<string>, word: string, min: number): void {
  const chars = [...word];
  for (let n = Math.min(min, chars.length); n <= chars.length; n++)
    keys.add(chars.slice(0, n).join(''));
}

/** The keys an order's contact is found by (see above); empty when it has none (an erased one). */
export function contactKeysOf(contact: ContactFields): string[] {
  const keys = new Set<string>();
  for (const word of wordsOf(contact.fullName ?? '')) addPrefixes(keys, word, MIN_PREFIX);
  const email = (contact.email ?? '').trim().toLowerCase();
  if (email.includes('@')) {
    if (email.length <= 100) keys.add(email);
    for (const word of wordsOf(email.slice(0, email.lastIndexOf('@'))))
      addPrefixes(keys, word, MIN_PREFIX);
  }
  const digits = nationalDigits(contact.phoneNumber ?? '');
  if (digits) {
    addPrefixes(keys, digits, MIN_DIGITS);
    for (let n = MIN_DIGITS; n < digits.length; n++) keys.add(digits.slice(-n));
  }
  return [...keys];
}

/** What a search asks the orders for. */
export type OrderSearch =
  | { kind: 'number'; number: string }
  | { kind: 'number-prefix'; from: string; to: string }
  | { kind: 'keys'; keys: string[] }
  /** Nothing a contact or purchase number could be found by (only punctuation, say). */
  | { kind: 'nothing' };

const CODE = `[${PURCHASE_NUMBER.alphabet}]`;
const WHOLE_NUMBER = new RegExp(`^${PURCHASE_NUMBER.prefix}${CODE}{${PURCHASE_NUMBER.length}}$`);
const NUMBER_START = new RegExp(
  `^${PURCHASE_NUMBER.prefix}${CODE}{${MIN_CODE_PREFIX},${PURCHASE_NUMBER.length - 1}}$`,
);

/** The search typed in an orders list, as what it looks up (see the rules above). */
export function orderSearchOf(search: string): OrderSearch {
  const text = search.trim();
  const upper = text.toUpperCase();
  if (WHOLE_NUMBER.test(upper)) return { kind: 'number', number: upper };
  if (NUMBER_START.test(upper)) {
    // The alphabet's last character is its greatest: every number starting so sorts below `to`.
    const last = PURCHASE_NUMBER.alphabet.at(-1)!;
    return {
      kind: 'number-prefix',
      from: upper,
      to: `${upper}${last.repeat(PURCHASE_NUMBER.length)}`,
    };
  }
  if (text.includes('@') && !/\s/.test(text)) return { kind: 'keys', keys: [text.toLowerCase()] };
  const digits = nationalDigits(text);
  if (digits) return { kind: 'keys', keys: [digits] };
  const keys = [...new Set(wordsOf(text))];
  return keys.length ? { kind: 'keys', keys } : { kind: 'nothing' };
}
