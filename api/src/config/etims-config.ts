import { z } from 'zod';

/**
 * KRA's hosts for OSCU (the API, its OAuth token, the receipt check page the QR code opens);
 * `sandbox-local` is the simulator in tools/etims (tests, `npm start`).
 */
const HOSTS = {
  sandbox: {
    api: 'https://etims-api-sbx.kra.go.ke/etims-api',
    token: 'https://sbx.kra.go.ke/v1/token/generate',
    portal: 'https://etims-sbx.kra.go.ke',
  },
  production: {
    api: 'https://etims-api.kra.go.ke/etims-api',
    token: 'https://api.kra.go.ke/v1/token/generate',
    portal: 'https://etims.kra.go.ke',
  },
  'sandbox-local': {
    api: 'http://127.0.0.1:4030/etims-api',
    token: 'http://127.0.0.1:4030/v1/token/generate',
    portal: 'http://127.0.0.1:4030',
  },
} as const;

/** What `sandbox-local` uses when nothing is set: the simulator's own test values, no secret. */
const LOCAL_DEFAULTS = {
  ETIMS_PIN: 'P000000000Z',
  ETIMS_DEVICE_SERIAL: 'SPC-LOCAL-0001',
  ETIMS_CONSUMER_KEY: 'local-etims-consumer-key',
  ETIMS_CONSUMER_SECRET: 'local-etims-consumer-secret',
  ETIMS_CMC_KEY: 'local-cmc-key-not-secret',
} as const;

/** The words that let production sign against a test environment, whose invoices are not valid. */
export const TEST_IN_PRODUCTION_WORDS = 'yes-these-invoices-are-not-valid-tax-invoices';

/** A host of KRA's test environment, or this machine (the simulator). */
const TEST_HOST = /(^|[.-])sbx[.-]|^(127\.0\.0\.1|localhost|\[::1\])$/;

const etimsSchema = z.object({
  ETIMS_ENV: z.enum(['off', 'sandbox-local', 'sandbox', 'production']).default('off'),
  ETIMS_BASE_URL: z.string().url().optional(),
  ETIMS_TOKEN_URL: z.string().url().optional(),
  ETIMS_PORTAL_URL: z.string().url().optional(),
  ETIMS_CONSUMER_KEY: z.string().min(1).optional(),
  ETIMS_CONSUMER_SECRET: z.string().min(1).optional(),
  ETIMS_PIN: z
    .string()
    .regex(/^[AP]\d{9}[A-Z]$/, "must be the shop's KRA PIN: A or P, 9 digits, a letter")
    .optional(),
  ETIMS_BRANCH: z
    .string()
    .regex(/^\d{2}$/, "must be KRA's two-digit branch id (00 for the head office)")
    .default('00'),
  ETIMS_DEVICE_SERIAL: z.string().min(1).max(100).optional(),
  ETIMS_CMC_KEY: z.string().min(1).max(255).optional(),
  ETIMS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  ETIMS_SEND_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  ETIMS_RETRY_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  ETIMS_ALLOW_TEST_IN_PRODUCTION: z.string().optional(),
});

/** KRA eTIMS (OSCU) settings; absent when ETIMS_ENV is unset or `off`. */
export interface EtimsConfig {
  env: 'sandbox-local' | 'sandbox' | 'production';
  /** OSCU's base URL, before the endpoint names. */
  baseUrl: string;
  /** KRA's OAuth token URL; null when no consumer key is set (no `Authorization` header). */
  tokenUrl: string | null;
  consumerKey: string | null;
  consumerSecret: string | null;
  /** The origin of KRA's receipt check page, which each receipt's QR code links to. */
  portalUrl: string;
  /** The shop's KRA PIN (OSCU's `tin`). */
  pin: string;
  /** OSCU's `bhfId`. */
  branch: string;
  deviceSerial: string;
  /** The communication key, when known before the initialisation (it is also stored once obtained). */
  cmcKey: string | null;
  timeoutMs: number;
  /** How often the signing queue looks for documents due (the sender sweep's interval). */
  sendEveryMs: number;
  /** The wait before a document OSCU did not answer is sent again; doubled each time, at most an hour. */
  retryMs: number;
  /** True when the invoices it signs are not valid tax invoices (a test environment). */
  testEnvironment: boolean;
}

/** Reads the ETIMS_* settings; `problems` name what is missing or malformed. */
export function readEtimsConfig(
  source: Record<string, string>,
  context: { nodeEnv: string },
): { etims: EtimsConfig | null; problems: string[] } {
  const parsed = etimsSchema.safeParse(source);
  if (!parsed.success)
    return {
      etims: null,
      problems: parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`),
    };
  const s = parsed.data;
  if (s.ETIMS_ENV === 'off') return { etims: null, problems: [] };
  const production = context.nodeEnv === 'production';
  if (s.ETIMS_ENV === 'sandbox-local' && production)
    return { etims: null, problems: ['ETIMS_ENV=sandbox-local is for development and tests only'] };

  const v = {
    ...(s.ETIMS_ENV === 'sandbox-local' ? LOCAL_DEFAULTS : {}),
    ...Object.fromEntries(Object.entries(s).filter(([, value]) => value !== undefined)),
  } as typeof s;
  const missing = (['ETIMS_PIN', 'ETIMS_DEVICE_SERIAL'] as const)
    .filter((key) => !v[key])
    .map((key) => `${key} is required when ETIMS_ENV is ${s.ETIMS_ENV}`);
  if (!!v.ETIMS_CONSUMER_KEY !== !!v.ETIMS_CONSUMER_SECRET)
    missing.push('ETIMS_CONSUMER_KEY and ETIMS_CONSUMER_SECRET are set together');
  if (missing.length) return { etims: null, problems: missing };

  const hosts = HOSTS[s.ETIMS_ENV];
  const baseUrl = (v.ETIMS_BASE_URL ?? hosts.api).replace(/\/$/, '');
  const testEnvironment = s.ETIMS_ENV !== 'production' || TEST_HOST.test(new URL(baseUrl).hostname);
  // A test environment signs with a test key: a customer's receipt would look valid and not be.
  if (
    production &&
    testEnvironment &&
    v.ETIMS_ALLOW_TEST_IN_PRODUCTION !== TEST_IN_PRODUCTION_WORDS
  )
    return {
      etims: null,
      problems: [
        `ETIMS_ENV=${s.ETIMS_ENV} with ${baseUrl} signs nothing KRA counts, so customers would get receipts that are not tax invoices: use ETIMS_ENV=production with KRA's live URL, or set ETIMS_ALLOW_TEST_IN_PRODUCTION=${TEST_IN_PRODUCTION_WORDS} for a demo`,
      ],
    };
  if (s.ETIMS_ENV === 'production' && !baseUrl.startsWith('https://'))
    return { etims: null, problems: ['ETIMS_BASE_URL must be https in production'] };

  return {
    etims: {
      env: s.ETIMS_ENV,
      baseUrl,
      tokenUrl: v.ETIMS_CONSUMER_KEY ? (v.ETIMS_TOKEN_URL ?? hosts.token) : null,
      consumerKey: v.ETIMS_CONSUMER_KEY ?? null,
      consumerSecret: v.ETIMS_CONSUMER_SECRET ?? null,
      portalUrl: (v.ETIMS_PORTAL_URL ?? hosts.portal).replace(/\/$/, ''),
      pin: v.ETIMS_PIN!,
      branch: v.ETIMS_BRANCH,
      deviceSerial: v.ETIMS_DEVICE_SERIAL!,
      cmcKey: v.ETIMS_CMC_KEY ?? null,
      timeoutMs: v.ETIMS_TIMEOUT_MS,
      sendEveryMs: v.ETIMS_SEND_EVERY_MS,
      retryMs: v.ETIMS_RETRY_MS,
      testEnvironment,
    },
    problems: [],
  };
}
