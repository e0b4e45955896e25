import { envSchema } from './env-schema';
import { readEtimsConfig, type EtimsConfig } from './etims-config';
import { readMpesaConfig, type MpesaConfig } from './mpesa-config';
import { DEV_DEFAULTS, missingInProduction, unsafeInProduction } from './production-rules';
import { readSmsConfig, type SmsConfig } from './sms-config';

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
  /** The shop's KRA PIN (SHOP_KRA_PIN), printed on quotations; null when not set. */
  shopKraPin: string | null;
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
  /** argon2id's memory (KiB) and passes for new hashes; a stored hash keeps the cost it was made with. */
  passwordHash: { memoryKib: number; passes: number };
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
  /** KRA eTIMS (OSCU) signing; null when ETIMS_ENV is unset or `off` (nothing is queued or sent). */
  etims: EtimsConfig | null;
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

  if (nodeEnv === 'production') problems.push(...missingInProduction(raw));
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
    problems.push(...unsafeInProduction(env));
    if (problems.length) throw new ConfigError(problems);
  }

  const { mpesa, problems: mpesaProblems } = readMpesaConfig(withDefaults, {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
  });
  if (mpesaProblems.length) throw new ConfigError(mpesaProblems);

  const { etims, problems: etimsProblems } = readEtimsConfig(withDefaults, {
    nodeEnv: env.NODE_ENV,
  });
  if (etimsProblems.length) throw new ConfigError(etimsProblems);

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
    shopKraPin: env.SHOP_KRA_PIN ?? null,
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
    passwordHash: { memoryKib: env.PASSWORD_HASH_MEMORY_KIB, passes: env.PASSWORD_HASH_PASSES },
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
    etims,
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
