import ipaddr from 'ipaddr.js';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The one spelling of each identifier the API compares, counts or keys a limit on. Whatever people
 * type (spaces, a country code or not, upper or lower case, an invisible character) becomes the same
 * text here, so one phone, e-mail, receipt code or network cannot pass for several.
 */

/** Blanks, control and format characters (zero-width space, joiner, BOM, bidi marks…), punctuation, symbols. */
const NOT_A_CODE_CHARACTER = /[\p{White_Space}\p{C}\p{P}\p{S}]/gu;

/**
 * A phone number in E.164 (`+254712345678`) from the ways people type it: 0712 345 678,
 * 254712345678, +254 712-345-678, 712345678. Numbers without a country code are Kenyan. Text the
 * phone library cannot read falls back to `+` and its digits, so it still has one spelling.
 */
export function canonicalPhone(typed: string): string {
  const text = typed
    .normalize('NFKC')
    .replace(/[\p{C}]/gu, '')
    .trim();
  const parsed = parsePhoneNumberFromString(text, 'KE');
  return parsed ? parsed.number : `+${text.replace(/\D/g, '')}`;
}

/** An e-mail address as accounts are looked up: without surrounding blanks, in lower case. */
export function canonicalEmail(typed: string): string {
  return typed.trim().toLowerCase();
}

/**
 * An M-Pesa receipt (transaction) code as one spelling: compatibility forms folded (full-width
 * letters), blanks, punctuation, symbols and invisible characters removed, upper case.
 * `sgh7 k2lp9q.` and `\u200bSGH7K2LP9Q` are both `SGH7K2LP9Q`. What remains may still hold
 * letters outside A-Z (a Cyrillic "А"): `isReceiptCode` tells.
 */
export function canonicalReceiptCode(typed: string): string {
  return typed.normalize('NFKC').replace(NOT_A_CODE_CHARACTER, '').toUpperCase();
}

/** True when a canonical receipt code is only Latin letters and digits, as M-Pesa writes them. */
export function isReceiptCode(canonical: string): boolean {
  return /^[A-Z0-9]+$/.test(canonical);
}

/**
 * The network a client is counted by: an IPv4 address whole; an IPv6 address by its /64 (one home
 * or phone is given at least a /64, so its 2^64 addresses are one client); an IPv4-mapped IPv6
 * address as the IPv4 address. Text that is not an address is kept as it is.
 */
export function clientNetwork(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.trim());
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
