import { createHmac, hkdfSync } from 'node:crypto';
import type { AppConfig } from '../config/app-config';

/**
 * Limit counters (quotas, rate limits) and the open-order caps' slots are keyed by whom they count:
 * a phone, an e-mail, an account, a client network. They store that key as a keyed hash, never in
 * clear, so they hold nothing to erase and a copy of the database names nobody: the same person
 * still meets the same counter, every API instance agrees (they share JWT_SECRET), and without
 * the secret nobody can test a phone number or an e-mail against them.
 */
export type PersonalKey = (key: string) => string;

/** Names this use of JWT_SECRET, so its key is unlike any other derived from it. */
const LABEL = 'spc personal keys v1';
/** 132 bits of the HMAC: no two people's keys meet. */
const HASH_CHARS = 22;
/** Kinds of key kept readable before the hash (the caps' messages and slot queries read them). */
const KINDS = ['phone', 'email', 'account', 'user', 'net', 'ip', 'guest'];
const KIND = new RegExp(`^(${KINDS.join('|')}):`);
const HASHED = new RegExp(`^(?:(?:${KINDS.join('|')}):)?[A-Za-z0-9_-]{${HASH_CHARS}}$`);

/**
 * The keyed hash of a key naming a person (`phone:+254712345678` becomes `phone:` and 22 characters,
 * HMAC-SHA256 under a key derived by HKDF from JWT_SECRET, base64url). A key without a known kind
 * is hashed whole. The hash covers the kind too: `phone:x` and `email:x` differ.
 */
export function personalKeys(config: Pick<AppConfig, 'jwt'>): PersonalKey {
  const secret = Buffer.from(hkdfSync('sha256', config.jwt.accessSecret, '', LABEL, 32));
  return (key) => {
    const kind = KIND.exec(key)?.[1];
    const hash = createHmac('sha256', secret).update(key).digest('base64url').slice(0, HASH_CHARS);
    return kind ? `${kind}:${hash}` : hash;
  };
}

/**
 * True for a key `personalKeys` made. A clear key never looks like one: a phone has its `+`, an
 * e-mail its `@`, a network its dots or colons, an account id 24 characters.
 */
export function isPersonalKey(key: string): boolean {
  return HASHED.test(key);
}
