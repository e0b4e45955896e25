import {
  PASSWORD_PATTERN,
  PASSWORD_RULE_MESSAGE,
  STAFF_PASSWORD_PATTERN,
  STAFF_PASSWORD_RULE_MESSAGE,
} from '@spc/shared-contracts';
import { z } from 'zod';
import { readMpesaConfig, type MpesaConfig } from './mpesa-config';
import { readSmsConfig, type SmsConfig } from './sms-config';

const DEV_DEFAULTS = {
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

/** Settings production must be given explicitly: the development defaults are public. */
const REQUIRED_IN_PRODUCTION = Object.keys(DEV_DEFAULTS) as (keyof typeof DEV_DEFAULTS)[];

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = z.string().url();

/** A season's window in the year, `MM-DD..MM-DD` (a real day each, the start not after the end). */
const seasonWindow = z
  .string()
  .regex(/^\d\d-\d\d\.\.\d\d-\d\d$/, 'must be MM-DD..MM-DD (e.g. 03-01..05-31)')
  .refine((v) => {
    // A malformed one is named by the pattern above, once.
    if (!/^\d\d-\d\d\.\.\d\d-\d\d$/.test(v)) return true;
    const [from, to] = v.split('..') as [string, string];
    const real = (md: string) =>
      !Number.isNaN(Date.parse(`2024-${md}T00:00:00Z`)) &&
      new Date(`2024-${md}T00:00:00Z`).toISOString().slice(5, 10) === md;
    return real(from) && real(to) && from <= to;
  }, 'must be two real days of the year, MM-DD..MM-DD, the first not after the second');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  ADMIN_EMAIL: z.string().email(),
  ADMIN_PASSWORD: z
    .string()
    .regex(
      PASSWORD_PATTERN,
      PASSWORD_RULE_MESSAGE.replace(/^Password/, 'must follow the password rule:'),
    ),
  STOREFRONT_URL: url,
  BACKOFFICE_URL: url,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Seedling Propagation Centre <no-reply@seedlings.local>'),
  UPLOADS_DIR: z.string().min(1).default('.data/uploads'),
  DATA_DIR: z.string().min(1).default('.data'),
  BUSINESS_WHATSAPP: z
    .string()
    .regex(/^\d{9,15}$/, 'must be digits only, in international form (e.g. 254712345678)')
    .default(SHOP_CONTACT_PLACEHOLDERS.BUSINESS_WHATSAPP),
  SHOP_PHONE: z
    .string()
    .regex(/^\+?\d[\d ]{7,18}\d$/, 'must be a phone number (digits, spaces, an optional +)')
    .default(SHOP_CONTACT_PLACEHOLDERS.SHOP_PHONE),
  SHOP_EMAIL: z.string().email().default(SHOP_CONTACT_PLACEHOLDERS.SHOP_EMAIL),
  RATE_LIMIT_CONTACT_PER_HOUR: z.coerce.number().int().min(1).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: booleanFlag.optional(),
  SWAGGER_ENABLED: booleanFlag.default(true),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_TRACKING_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_ORDERS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_CONTACT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_SMS_INBOUND_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  LOGIN_LOCKOUT_AFTER_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCKOUT_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  ORDER_RECONCILE_AFTER_MS: z.coerce.number().int().min(500).default(30_000),
  UNPAID_ORDER_EXPIRY_HOURS: z.coerce.number().min(0).default(24),
  // Seedlings (a line of trays holds many), so not bound by the line's quantity limit.
  ORDER_MAX_UNITS_PER_LINE: z.coerce.number().int().min(1).default(1000),
  ORDER_MAX_UNITS_PER_ORDER: z.coerce.number().int().min(1).default(2000),
  ORDER_MAX_OPEN_UNPAID: z.coerce.number().int().min(1).default(2),
  ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: z.coerce.number().int().min(1).default(4000),
  BOOKING_DEPOSIT_PERCENT: z.coerce.number().int().min(1).max(100).default(30),
  BOOKING_BALANCE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  BOOKING_RELEASE_DEPOSIT: z.enum(['keep', 'refund']).default('keep'),
  SEASON_LONG_RAINS: seasonWindow.default('03-01..05-31'),
  SEASON_SHORT_RAINS: seasonWindow.default('10-01..12-31'),
  SEASON_LEAD_DAYS: z.coerce.number().int().min(0).max(365).default(42),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(false|true|\d{1,2}|[\d.:/a-fA-F]+(,[\d.:/a-fA-F]+)*)$/,
      'must be false, true, a number of proxy hops, or addresses/CIDRs separated by commas',
    )
    .default('false'),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  HTTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  CATALOG_SYNC_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000).default(5),
  LOW_STOCK_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 a-z 0-9 . -)')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: url.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_URL: url.optional(),
  /** Production refuses a guessable JWT_SECRET unless this says, in words, that it knows. */
  JWT_ALLOW_WEAK_SECRET: z.string().optional(),
});

export type Environment = z.input<typeof envSchema>;

/** The API's settings, read once from the environment and validated at start-up. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  mongodbUri: string;
  /** Access tokens are signed with this; refresh tokens are random, stored hashed, and need no key. */
  jwt: { accessSecret: string };
  admin: { email: string; password: string; usingDevDefaults: boolean };
  storefrontUrl: string;
  backofficeUrl: string;
  corsOrigins: string[];
  mail: { smtpUrl?: string; from: string };
  uploadsDir: string;
  dataDir: string;
  businessWhatsapp: string;
  /** The shop's phone and e-mail shown to shoppers; contact-form messages are e-mailed to `email`. */
  shopContacts: { phone: string; whatsapp: string; email: string };
  /** Contact-form messages accepted an hour from one client address, and for one e-mail address. */
  contactPerHour: number;
  /** Order text messages (Africa's Talking, or the local simulator); null when SMS is off. */
  sms: SmsConfig | null;
  log: { level: string; pretty: boolean };
  swaggerEnabled: boolean;
  /**
   * Requests a minute per client address: sign-in, sign-up and password routes; order tracking; order
   * placement. `uploads`: image uploads per account. `account`: per account, whatever the address, on the routes that check or set a password.
   * `contact`: contact-form messages a minute per client address (before the hourly limit is even looked at).
   * `smsInbound`: posts to the SMS gateway's incoming-messages callback a minute per client address
   * (the gateway posts every reply from its own servers).
   */
  rateLimits: {
    auth: number;
    tracking: number;
    orders: number;
    uploads: number;
    account: number;
    contact: number;
    smsInbound: number;
  };
  /** Sign-in lockout per account: after this many wrong passwords in a row, for base seconds, doubling. */
  loginLockout: { afterFailures: number; baseSeconds: number };
  /**
   * `reconcileAfterMs`: a placement still `reserving` after this long is treated as abandoned and
   * undone. `unpaidExpiryMs`: a Pending, unpaid order older than this is cancelled automatically and its
   * stock returned (stops stock hoarding by orders nobody means to pay); 0 turns it off.
   * `maxUnitsPerLine`, `maxUnitsPerOrder`: the most seedlings of one product, and in all, per order.
   * `maxOpenUnpaid`: how many Pending, unpaid orders one phone, e-mail or account may have.
   * `maxUnpaidUnitsPerAddress`: how many seedlings Pending, unpaid orders from one client network
   * (an IPv4 address, an IPv6 /64) may hold together, counted in blocks of 100.
   */
  orders: {
    reconcileAfterMs: number;
    unpaidExpiryMs: number;
    maxUnitsPerLine: number;
    maxUnitsPerOrder: number;
    maxOpenUnpaid: number;
    maxUnpaidUnitsPerAddress: number;
  };
  /**
   * Bookings of seedlings still growing: `depositPercent` of the total paid now; a balance unpaid
   * `balanceDays` after the batch is ready releases the booking, its deposit kept or refunded by
   * `releaseDeposit`. `seasons`: the rains' windows in the year (`MM-DD`); a batch is for a season
   * when it is ready between `leadDays` before the season's start and its end.
   */
  bookings: {
    depositPercent: number;
    balanceDays: number;
    releaseDeposit: 'keep' | 'refund';
    seasons: {
      key: 'long-rains' | 'short-rains';
      from: string;
      to: string;
    }[];
    leadDays: number;
  };
  /** M-Pesa Express (STK push) at checkout; null when MPESA_ENV is unset or `off`. */
  mpesa: MpesaConfig | null;
  /** Which forwarded addresses to believe (Fastify's `trustProxy`): false, hop count, or addresses. */
  trustProxy: boolean | number | string[];
  /** At most this long before one instance's catalog cache sees another instance's catalog write. */
  catalogSyncIntervalMs: number;
  /**
   * `lowStockThreshold`: stock at or below this is low, for products without their own threshold.
   * `digestHour`: the shop-time hour from which the day's low-stock e-mail to staff goes out.
   */
  stock: { lowStockThreshold: number; digestHour: number };
  /**
   * `requestTimeoutMs`: a request must arrive whole (headers and body) within this, or its connection
   * is closed (a client trickling a body cannot hold a connection or delay shutdown).
   * `connectionTimeoutMs`: a connection silent this long is closed.
   */
  http: { requestTimeoutMs: number; connectionTimeoutMs: number };
  /** Uploaded images go to this S3-compatible bucket when S3_BUCKET is set (else UPLOADS_DIR). */
  s3?: {
    bucket: string;
    region: string;
    endpoint: string;
    accessKeyId: string;
    secretAccessKey: string;
    publicUrl: string;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; development and test get working defaults, production gets none. */
export function loadConfig(source: Record<string, string | undefined>): AppConfig {
  const raw = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  ) as Record<string, string>;
  const nodeEnv = raw.NODE_ENV ?? 'development';
  const problems: string[] = [];

  if (nodeEnv === 'production') {
    for (const key of REQUIRED_IN_PRODUCTION) {
      if (!raw[key]) problems.push(`${key} is required in production`);
    }
    for (const [key, placeholder] of Object.entries(SHOP_CONTACT_PLACEHOLDERS)) {
      if (!raw[key]) problems.push(`${key} is required in production (the shop's real contact)`);
      else if (raw[key].replace(/\s/g, '') === placeholder.replace(/\s/g, ''))
        problems.push(`${key} must be the shop's real contact, not the development placeholder`);
    }
  }
  const withDefaults: Record<string, string> =
    nodeEnv === 'production' ? raw : { ...DEV_DEFAULTS, ...raw };
  if (problems.length) throw new ConfigError(problems);

  const parsed = envSchema.safeParse(withDefaults);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`,
      ),
    );
  }
  const env = parsed.data;
  if (env.NODE_ENV === 'production') {
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
      env.ADMIN_PASSWORD !== DEV_DEFAULTS.ADMIN_PASSWORD &&
      !STAFF_PASSWORD_PATTERN.test(env.ADMIN_PASSWORD)
    )
      problems.push(
        `ADMIN_PASSWORD ${STAFF_PASSWORD_RULE_MESSAGE.replace(/^Staff and admin passwords/, 'must follow the staff rule: passwords')}`,
      );
    if (problems.length) throw new ConfigError(problems);
  }

  const { mpesa, problems: mpesaProblems } = readMpesaConfig(withDefaults, {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
  });
  if (mpesaProblems.length) throw new ConfigError(mpesaProblems);

  const { sms, problems: smsProblems } = readSmsConfig(withDefaults, env.NODE_ENV);
  if (smsProblems.length) throw new ConfigError(smsProblems);

  if (env.ORDER_MAX_UNPAID_UNITS_PER_ADDRESS < env.ORDER_MAX_UNITS_PER_ORDER)
    throw new ConfigError([
      `ORDER_MAX_UNPAID_UNITS_PER_ADDRESS (${env.ORDER_MAX_UNPAID_UNITS_PER_ADDRESS}) must be at least ORDER_MAX_UNITS_PER_ORDER (${env.ORDER_MAX_UNITS_PER_ORDER}): no order that large could be placed`,
    ]);

  if (env.S3_BUCKET) {
    for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PUBLIC_URL'] as const) {
      if (!env[key]) problems.push(`${key} is required when S3_BUCKET is set`);
    }
    if (problems.length) throw new ConfigError(problems);
  }

  const origin = (u: string) => new URL(u).origin;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    mongodbUri: env.MONGODB_URI,
    jwt: { accessSecret: env.JWT_SECRET },
    admin: {
      email: env.ADMIN_EMAIL.toLowerCase(),
      password: env.ADMIN_PASSWORD,
      usingDevDefaults: !raw.ADMIN_EMAIL || !raw.ADMIN_PASSWORD,
    },
    storefrontUrl: env.STOREFRONT_URL.replace(/\/$/, ''),
    backofficeUrl: env.BACKOFFICE_URL.replace(/\/$/, ''),
    corsOrigins: [...new Set([origin(env.STOREFRONT_URL), origin(env.BACKOFFICE_URL)])],
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    uploadsDir: env.UPLOADS_DIR,
    dataDir: env.DATA_DIR,
    businessWhatsapp: env.BUSINESS_WHATSAPP,
    shopContacts: { phone: env.SHOP_PHONE, whatsapp: env.BUSINESS_WHATSAPP, email: env.SHOP_EMAIL },
    contactPerHour: env.RATE_LIMIT_CONTACT_PER_HOUR,
    sms,
    log: {
      level: env.LOG_LEVEL,
      pretty: env.LOG_PRETTY ?? env.NODE_ENV === 'development',
    },
    swaggerEnabled: env.SWAGGER_ENABLED,
    rateLimits: {
      auth: env.RATE_LIMIT_AUTH_PER_MINUTE,
      tracking: env.RATE_LIMIT_TRACKING_PER_MINUTE,
      orders: env.RATE_LIMIT_ORDERS_PER_MINUTE,
      uploads: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
      account: env.RATE_LIMIT_ACCOUNT_PER_MINUTE,
      contact: env.RATE_LIMIT_CONTACT_PER_MINUTE,
      smsInbound: env.RATE_LIMIT_SMS_INBOUND_PER_MINUTE,
    },
    loginLockout: {
      afterFailures: env.LOGIN_LOCKOUT_AFTER_FAILURES,
      baseSeconds: env.LOGIN_LOCKOUT_BASE_SECONDS,
    },
    orders: {
      reconcileAfterMs: env.ORDER_RECONCILE_AFTER_MS,
      unpaidExpiryMs: Math.round(env.UNPAID_ORDER_EXPIRY_HOURS * 3_600_000),
      maxUnitsPerLine: env.ORDER_MAX_UNITS_PER_LINE,
      maxUnitsPerOrder: env.ORDER_MAX_UNITS_PER_ORDER,
      maxOpenUnpaid: env.ORDER_MAX_OPEN_UNPAID,
      maxUnpaidUnitsPerAddress: env.ORDER_MAX_UNPAID_UNITS_PER_ADDRESS,
    },
    bookings: {
      depositPercent: env.BOOKING_DEPOSIT_PERCENT,
      balanceDays: env.BOOKING_BALANCE_DAYS,
      releaseDeposit: env.BOOKING_RELEASE_DEPOSIT,
      seasons: [
        { key: 'long-rains', ...windowOf(env.SEASON_LONG_RAINS) },
        { key: 'short-rains', ...windowOf(env.SEASON_SHORT_RAINS) },
      ],
      leadDays: env.SEASON_LEAD_DAYS,
    },
    mpesa,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    catalogSyncIntervalMs: env.CATALOG_SYNC_INTERVAL_MS,
    stock: {
      lowStockThreshold: env.LOW_STOCK_THRESHOLD,
      digestHour: env.LOW_STOCK_DIGEST_HOUR,
    },
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
    },
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: (env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`).replace(
            /\/$/,
            '',
          ),
          accessKeyId: env.S3_ACCESS_KEY_ID!,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
          publicUrl: env.S3_PUBLIC_URL!.replace(/\/$/, ''),
        }
      : undefined,
  };
}

function windowOf(value: string): { from: string; to: string } {
  const [from, to] = value.split('..') as [string, string];
  return { from, to };
}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',');
}
