import { z } from 'zod';

/** Daraja's hosts; `sandbox-local` is the simulator in tools/mpesa (tests, `npm start`). */
const DARAJA_BASE_URLS = {
  sandbox: 'https://sandbox.safaricom.co.ke',
  production: 'https://api.safaricom.co.ke',
  'sandbox-local': 'http://127.0.0.1:4010',
} as const;

/**
 * Safaricom's public sandbox shortcode and passkey (published in the Daraja docs), used by
 * `sandbox-local` so that nothing needs to be configured to try M-Pesa Express on a laptop.
 */
const LOCAL_DEFAULTS = {
  MPESA_CONSUMER_KEY: 'local-consumer-key',
  MPESA_CONSUMER_SECRET: 'local-consumer-secret',
  MPESA_SHORTCODE: '174379',
  MPESA_PASSKEY: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
  MPESA_CALLBACK_TOKEN: 'local-callback-token-not-secret',
  MPESA_INITIATOR_NAME: 'testapi',
  MPESA_SECURITY_CREDENTIAL: 'local-security-credential',
} as const;

const REQUIRED = [
  'MPESA_CONSUMER_KEY',
  'MPESA_CONSUMER_SECRET',
  'MPESA_SHORTCODE',
  'MPESA_PASSKEY',
  'MPESA_CALLBACK_BASE_URL',
  'MPESA_CALLBACK_TOKEN',
] as const;

/** The words that let production run against Daraja's sandbox, where no real money moves. */
export const SANDBOX_IN_PRODUCTION_WORDS = 'yes-no-real-money-is-taken';

const shortcode = z.string().regex(/^\d{5,7}$/, 'must be the 5-7 digit paybill or till number');

const mpesaSchema = z.object({
  MPESA_ENV: z.enum(['off', 'sandbox', 'production', 'sandbox-local']).default('off'),
  MPESA_CONSUMER_KEY: z.string().min(1).optional(),
  MPESA_CONSUMER_SECRET: z.string().min(1).optional(),
  MPESA_SHORTCODE: shortcode.optional(),
  MPESA_PASSKEY: z.string().min(1).optional(),
  MPESA_TRANSACTION_TYPE: z
    .enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'])
    .default('CustomerPayBillOnline'),
  MPESA_PARTY_B: shortcode.optional(),
  MPESA_CALLBACK_BASE_URL: z.string().url().optional(),
  MPESA_CALLBACK_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24-128 letters, digits, _ or -')
    .optional(),
  MPESA_CALLBACK_ALLOWED_IPS: z
    .string()
    .regex(/^[\d.:a-fA-F]+(,[\d.:a-fA-F]+)*$/, 'must be IP addresses separated by commas')
    .optional(),
  MPESA_BASE_URL: z.string().url().optional(),
  MPESA_RECONCILE_AFTER_MS: z.coerce.number().int().min(500).default(30_000),
  MPESA_PROMPTS_PER_PHONE_PER_DAY: z.coerce.number().int().min(1).default(10),
  MPESA_PROMPTS_PER_DAY: z.coerce.number().int().min(1).default(1000),
  MPESA_ALLOW_SANDBOX_IN_PRODUCTION: z.string().optional(),
  MPESA_INITIATOR_NAME: z.string().min(1).optional(),
  MPESA_SECURITY_CREDENTIAL: z.string().min(1).optional(),
  MPESA_C2B_REGISTER_ON_START: z.enum(['true', 'false']).default('true'),
  MPESA_C2B_ANY_ACCOUNT: z.enum(['true', 'false']).default('false'),
  MPESA_C2B_VERIFY: z.enum(['true', 'false']).default('true'),
});

/** M-Pesa Express (Daraja STK push) settings; absent when MPESA_ENV is unset or `off`. */
export interface MpesaConfig {
  env: 'sandbox' | 'production' | 'sandbox-local';
  /** Daraja's origin (or the local simulator's). */
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  transactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  /** The paybill, or for Buy Goods the till number; the shortcode unless MPESA_PARTY_B is set. */
  partyB: string;
  /** Where Daraja sends the outcome: `<base>/api/payments/mpesa/callback/<token>`. */
  callbackUrl: string;
  callbackToken: string;
  /** When not empty, callbacks from other addresses are refused. */
  callbackAllowedIps: string[];
  /** A prompt without a callback this long is asked about with the STK query. */
  reconcileAfterMs: number;
  /**
   * Prompts a shop day (Africa/Nairobi) to one phone, and in all: past the second, prompts stop
   * until midnight and staff and admins are e-mailed once.
   */
  budgets: { perPhonePerDay: number; perDay: number };
  /** Paybill (C2B), reversals and B2C: see payments/c2b/. */
  c2b: {
    /** `<base>/api/payments/mpesa/c2b/{validation,confirmation}/<token>`. */
    validationUrl: string;
    confirmationUrl: string;
    /** Where Daraja sends the result of a status query, reversal or B2C payment (`…/result/<kind>`). */
    resultUrl: (kind: 'status' | 'reversal' | 'b2c') => string;
    /** Where Daraja says a request of these timed out in its queue. */
    timeoutUrl: string;
    /** Register the URLs with Daraja when the API starts (idempotent). */
    registerOnStart: boolean;
    /** Validation accepts any account number (not only an open order's purchase number). */
    anyAccount: boolean;
    /** Each paybill payment is confirmed with Daraja's transaction status query before it counts. */
    verify: boolean;
    /** The API operator and its encrypted password, for status queries, reversals and B2C. */
    initiatorName: string | null;
    securityCredential: string | null;
  };
}

/** Reads the MPESA_* settings; `problems` name what is missing or malformed. */
export function readMpesaConfig(
  source: Record<string, string>,
  context: { nodeEnv: string; port: number },
): { mpesa: MpesaConfig | null; problems: string[] } {
  const parsed = mpesaSchema.safeParse(source);
  if (!parsed.success) {
    return {
      mpesa: null,
      problems: parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`),
    };
  }
  const s = parsed.data;
  if (s.MPESA_ENV === 'off') return { mpesa: null, problems: [] };
  const local = s.MPESA_ENV === 'sandbox-local';
  if (local && context.nodeEnv === 'production')
    return { mpesa: null, problems: ['MPESA_ENV=sandbox-local is for development and tests only'] };
  // In the sandbox every prompt "succeeds" with test money: orders would be marked paid for nothing.
  if (
    s.MPESA_ENV === 'sandbox' &&
    context.nodeEnv === 'production' &&
    s.MPESA_ALLOW_SANDBOX_IN_PRODUCTION !== SANDBOX_IN_PRODUCTION_WORDS
  )
    return {
      mpesa: null,
      problems: [
        `MPESA_ENV=sandbox takes no real money, so orders would be marked paid for nothing: use MPESA_ENV=production, or set MPESA_ALLOW_SANDBOX_IN_PRODUCTION=${SANDBOX_IN_PRODUCTION_WORDS} for a demo`,
      ],
    };

  const v = {
    ...(local
      ? {
          ...LOCAL_DEFAULTS,
          MPESA_CALLBACK_BASE_URL: `http://127.0.0.1:${context.port}`,
        }
      : {}),
    ...Object.fromEntries(Object.entries(s).filter(([, value]) => value !== undefined)),
  } as typeof s;
  const missing = REQUIRED.filter((key) => !v[key]).map(
    (key) => `${key} is required when MPESA_ENV is ${s.MPESA_ENV}`,
  );
  if (missing.length) return { mpesa: null, problems: missing };
  if (s.MPESA_ENV === 'production' && !v.MPESA_CALLBACK_BASE_URL!.startsWith('https://'))
    return { mpesa: null, problems: ['MPESA_CALLBACK_BASE_URL must be https in production'] };

  const token = v.MPESA_CALLBACK_TOKEN!;
  const base = `${v.MPESA_CALLBACK_BASE_URL!.replace(/\/$/, '')}/api/payments/mpesa`;
  return {
    mpesa: {
      env: s.MPESA_ENV,
      baseUrl: (v.MPESA_BASE_URL ?? DARAJA_BASE_URLS[s.MPESA_ENV]).replace(/\/$/, ''),
      consumerKey: v.MPESA_CONSUMER_KEY!,
      consumerSecret: v.MPESA_CONSUMER_SECRET!,
      shortcode: v.MPESA_SHORTCODE!,
      passkey: v.MPESA_PASSKEY!,
      transactionType: v.MPESA_TRANSACTION_TYPE,
      partyB: v.MPESA_PARTY_B ?? v.MPESA_SHORTCODE!,
      callbackUrl: `${v.MPESA_CALLBACK_BASE_URL!.replace(/\/$/, '')}/api/payments/mpesa/callback/${token}`,
      callbackToken: token,
      callbackAllowedIps: v.MPESA_CALLBACK_ALLOWED_IPS?.split(',') ?? [],
      reconcileAfterMs: v.MPESA_RECONCILE_AFTER_MS,
      budgets: {
        perPhonePerDay: v.MPESA_PROMPTS_PER_PHONE_PER_DAY,
        perDay: v.MPESA_PROMPTS_PER_DAY,
      },
      c2b: {
        validationUrl: `${base}/c2b/validation/${token}`,
        confirmationUrl: `${base}/c2b/confirmation/${token}`,
        resultUrl: (kind) => `${base}/result/${kind}/${token}`,
        timeoutUrl: `${base}/result/timeout/${token}`,
        registerOnStart: v.MPESA_C2B_REGISTER_ON_START === 'true',
        anyAccount: v.MPESA_C2B_ANY_ACCOUNT === 'true',
        verify: v.MPESA_C2B_VERIFY === 'true',
        initiatorName: v.MPESA_INITIATOR_NAME ?? null,
        securityCredential: v.MPESA_SECURITY_CREDENTIAL ?? null,
      },
    },
    problems: [],
  };
}
