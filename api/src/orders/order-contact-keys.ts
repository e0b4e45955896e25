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
 *
 * A search of several words is asked by all their keys (`$all`), which the index serves from the
 * first key alone: from a word, that reads every order of the word (thousands share a first name).
 * Each order therefore also carries a key for each pair of its words, `"gra kam"`: the first
 * PAIR_PREFIX characters of each, in alphabetical order (of the first PAIR_WORDS words at least that
 * long). A search of two such words puts their pair's key first, so the index reads the few orders
 * whose words start so, and the words' own keys narrow them; any other search puts its longest word
 * first. Older orders get their pairs from the migration (migrations/contact-keys.migration.ts).
 */

/** The longest key: a longer word is keyed and searched by its first characters. */
const MAX_KEY = 24;
/** The shortest start of a word that is a key (shorter words are keyed whole). */
const MIN_PREFIX = 2;
/** The shortest start or end of a phone number that is a key. */
const MIN_DIGITS = 3;
/** A purchase number's start names few enough orders from this many characters of its code. */
const MIN_CODE_PREFIX = 3;
/** A word pair's key holds this many first characters of each word (a shorter word whole). */
const PAIR_PREFIX = 3;
/** The pairs are made of the contact's first this many distinct words (names, then e-mail). */
const PAIR_WORDS = 8;

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

const length = (word: string) => [...word].length;

/** The key of two words (see above): a space cannot occur in any other key. */
function pairKey(a: string, b: string): string {
  const start = (w: string) => [...w].slice(0, PAIR_PREFIX).join('');
  return [start(a), start(b)].sort().join(' ');
}

/** The keys an order's contact is found by (see above); empty when it has none (an erased one). */
export function contactKeysOf(contact: ContactFields): string[] {
  const keys = new Set<string>();
  const words = wordsOf(contact.fullName ?? '');
  const email = (contact.email ?? '').trim().toLowerCase();
  if (email.includes('@')) {
    if (email.length <= 100) keys.add(email);
    words.push(...wordsOf(email.slice(0, email.lastIndexOf('@'))));
  }
  for (const word of words) addPrefixes(keys, word, MIN_PREFIX);
  // A shorter word is never in a searched pair (see `orderSearchOf`).
  const paired = [...new Set(words)].filter((w) => length(w) >= PAIR_PREFIX).slice(0, PAIR_WORDS);
  for (let i = 0; i < paired.length; i++)
    for (let j = i + 1; j < paired.length; j++) keys.add(pairKey(paired[i]!, paired[j]!));
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
  /** Every key must be the order's; the first is the one the index is read by (see above). */
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
  const words = [...new Set(wordsOf(text))].sort((a, b) => length(b) - length(a));
  if (!words.length) return { kind: 'nothing' };
  const pair = searchedPair(words.filter((w) => length(w) >= PAIR_PREFIX));
  return { kind: 'keys', keys: pair ? [pair, ...words] : words };
}

/**
 * The pair key of the two longest words of which neither starts the other (two words one of which
 * starts the other may both start one word of the contact, which then holds no pair of them).
 */
function searchedPair(words: string[]): string | null {
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j < words.length; j++) {
      const [a, b] = [words[i]!, words[j]!];
      if (!a.startsWith(b) && !b.startsWith(a)) return pairKey(a, b);
    }
  return null;
}
