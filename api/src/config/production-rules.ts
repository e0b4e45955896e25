/**
 * What production must be given and must not be: the development defaults are public, so production
 * starts only with its own secrets, admin, sites and the shop's real contacts.
 */
import { STAFF_PASSWORD_PATTERN, STAFF_PASSWORD_RULE_MESSAGE } from '@spc/shared-contracts';
import type { ParsedEnvironment } from './env-schema';

/** What development and the tests run with when a setting is unset (public: never production's). */
export const DEV_DEFAULTS = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/spc',
  JWT_SECRET: 'dev-only-access-secret-change-me-0123456789abcdef',
  ADMIN_EMAIL: 'admin@spc.local',
  ADMIN_PASSWORD: 'Admin@1234',
  STOREFRONT_URL: 'http://localhost:5173',
  BACKOFFICE_URL: 'http://localhost:5174',
} as const;

/** The development admin's sign-in, when ADMIN_EMAIL or ADMIN_PASSWORD is unset: it names nobody. */
export const DEV_ADMIN = {
  email: DEV_DEFAULTS.ADMIN_EMAIL,
  password: DEV_DEFAULTS.ADMIN_PASSWORD,
} as const;

/**
 * The shop's own contacts as development shows them. Production refuses to start while one is unset
 * or still one of these: shoppers would be told to call or write to nobody.
 */
export const SHOP_CONTACT_PLACEHOLDERS = {
  SHOP_PHONE: '+254 700 000 000',
  BUSINESS_WHATSAPP: '254700000000',
  SHOP_EMAIL: 'info@seedlings.local',
} as const;

/** The words that let production start with a guessable JWT_SECRET (a demo, never a shop). */
export const WEAK_SECRET_WORDS = 'yes-anyone-who-guesses-it-can-sign-in-as-admin';

/**
 * A secret a person typed rather than a random one: a unit repeated (`aaaa…`, `abcabc…`,
 * `password-password-…`), fewer than 7 different characters, or one character making up a third of
 * it. A random secret (`openssl rand -hex 32`, or base64) is none of these (a 32-character hex one
 * fails about once in 30,000 draws: draw again).
 */
export function weakSecret(secret: string): boolean {
  const counts = new Map<string, number>();
  for (const c of secret) counts.set(c, (counts.get(c) ?? 0) + 1);
  if (counts.size < 7 || Math.max(...counts.values()) > secret.length / 3) return true;
  for (let period = 1; period <= secret.length / 2; period++) {
    let repeats = true;
    for (let i = period; i < secret.length && repeats; i++)
      repeats = secret[i] === secret[i - period];
    if (repeats) return true;
  }
  return false;
}

/** OWASP's least cost for argon2id (19 MiB, 2 passes, 1 lane); production refuses less. */
export const PASSWORD_HASH_FLOOR = { memoryKib: 19_456, passes: 2 } as const;

/** Settings production must be given explicitly: the development defaults are public. */
const REQUIRED_IN_PRODUCTION = Object.keys(DEV_DEFAULTS) as (keyof typeof DEV_DEFAULTS)[];

/** The settings production lacks, or still has as the development placeholders (before parsing). */
export function missingInProduction(raw: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const key of REQUIRED_IN_PRODUCTION) {
    if (!raw[key]) problems.push(`${key} is required in production`);
  }
  for (const [key, placeholder] of Object.entries(SHOP_CONTACT_PLACEHOLDERS)) {
    if (!raw[key]) problems.push(`${key} is required in production (the shop's real contact)`);
    else if (raw[key].replace(/\s/g, '') === placeholder.replace(/\s/g, ''))
      problems.push(`${key} must be the shop's real contact, not the development placeholder`);
  }
  return problems;
}

/** Production settings that parse but are unsafe: development secrets, a guessable JWT_SECRET. */
export function unsafeInProduction(env: ParsedEnvironment): string[] {
  const problems: string[] = [];
  for (const key of ['JWT_SECRET', 'ADMIN_PASSWORD'] as const) {
    if (env[key] === DEV_DEFAULTS[key])
      problems.push(`${key} must not be the development default in production`);
  }
  if (
    env.JWT_SECRET !== DEV_DEFAULTS.JWT_SECRET &&
    weakSecret(env.JWT_SECRET) &&
    env.JWT_ALLOW_WEAK_SECRET !== WEAK_SECRET_WORDS
  ) {
    problems.push(
      `JWT_SECRET is guessable (repeated or too few different characters): use a random one (openssl rand -hex 32), or set JWT_ALLOW_WEAK_SECRET=${WEAK_SECRET_WORDS} for a demo`,
    );
  }
  if (
    env.PASSWORD_HASH_MEMORY_KIB < PASSWORD_HASH_FLOOR.memoryKib ||
    env.PASSWORD_HASH_PASSES < PASSWORD_HASH_FLOOR.passes
  )
    problems.push(
      `PASSWORD_HASH_MEMORY_KIB and PASSWORD_HASH_PASSES must be at least ${PASSWORD_HASH_FLOOR.memoryKib} and ${PASSWORD_HASH_FLOOR.passes} in production (OWASP's floor for argon2id): a cheaper hash is quicker to guess`,
    );
  if (
    env.ADMIN_PASSWORD !== DEV_DEFAULTS.ADMIN_PASSWORD &&
    !STAFF_PASSWORD_PATTERN.test(env.ADMIN_PASSWORD)
  )
    problems.push(
      `ADMIN_PASSWORD ${STAFF_PASSWORD_RULE_MESSAGE.replace(/^Staff and admin passwords/, 'must follow the staff rule: passwords')}`,
    );
  return problems;
}
