/**
 * The environment the API reads, as one zod schema: names, types, ranges and defaults. M-Pesa
 * (MPESA_*), SMS (SMS_*, AT_*) and KRA eTIMS (ETIMS_*) have schemas of their own beside it
 * (mpesa-config.ts, sms-config.ts, etims-config.ts), read by loadConfig from the same values.
 */
import {
  KRA_PIN_MESSAGE,
  KRA_PIN_PATTERN,
  PASSWORD_PATTERN,
  PASSWORD_RULE_MESSAGE,
} from '@spc/shared-contracts';
import { z } from 'zod';
import { SHOP_CONTACT_PLACEHOLDERS } from './production-rules';

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

export const envSchema = z.object({
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
  /** The shop's own KRA PIN, printed on quotations (and the invoices to come); unset: not printed. */
  SHOP_KRA_PIN: z.string().regex(KRA_PIN_PATTERN, KRA_PIN_MESSAGE).optional(),
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
  // argon2id's cost: the library's defaults (64 MiB, 3 passes); production refuses less than
  // OWASP's floor (19 MiB, 2 passes). The tests, which make thousands of accounts, set it low.
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(1024).max(4_194_304).default(65_536),
  PASSWORD_HASH_PASSES: z.coerce.number().int().min(1).max(10).default(3),
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
export type ParsedEnvironment = z.output<typeof envSchema>;
