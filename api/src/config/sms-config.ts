import { z } from 'zod';

/** Africa's Talking's hosts: the live one, and the sandbox one used with the username `sandbox`. */
const AT_BASE_URLS = {
  live: 'https://api.africastalking.com',
  sandbox: 'https://api.sandbox.africastalking.com',
} as const;

/** Where the local simulator (tools/sms/simulator.ts) listens unless SMS_BASE_URL says otherwise. */
const SIMULATOR_URL = 'http://127.0.0.1:4020';

/**
 * The inbound token with the simulator when SMS_INBOUND_TOKEN is unset: the simulator's own default
 * (`LOCAL_INBOUND_TOKEN` in tools/sms/simulator.ts), so `npm start` needs no setting.
 */
const SIMULATOR_INBOUND_TOKEN = 'local-sms-inbound-token-not-secret';

const smsSchema = z.object({
  SMS_PROVIDER: z.enum(['off', 'africastalking', 'simulator']).default('off'),
  AT_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be the Africa’s Talking app username')
    .optional(),
  AT_API_KEY: z.string().min(16, 'must be the Africa’s Talking API key').optional(),
  AT_SENDER_ID: z
    .string()
    .regex(/^[A-Za-z0-9 ]{3,11}$|^\d{3,15}$/, 'must be an approved sender id or short code')
    .optional(),
  SMS_BASE_URL: z.string().url().optional(),
  SMS_INBOUND_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24-128 letters, digits, _ or -')
    .optional(),
  SMS_RETRY_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  SMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  SMS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).default(10),
  SMS_PER_SENDER_PER_DAY: z.coerce.number().int().min(1).default(20),
  SMS_PER_DAY: z.coerce.number().int().min(1).default(500),
});

/** Order text messages; absent when SMS_PROVIDER is unset or `off`. */
export interface SmsConfig {
  provider: 'africastalking' | 'simulator';
  /** Africa's Talking's origin (or the simulator's); `/version1/messaging` is appended. */
  baseUrl: string;
  username: string;
  apiKey: string;
  /** The approved sender id or short code; empty sends from the account's default. */
  senderId: string;
  /**
   * The secret in the incoming-messages callback's path, `<api>/api/sms/inbound/<token>`, as it is
   * given to the gateway: a reply posted without it is answered 404 and read no further.
   */
  inboundToken: string;
  /** How often the outbox is looked at for messages due a (re)try. */
  retryIntervalMs: number;
  /** A message that failed this many times is given up (recorded as failed). */
  maxAttempts: number;
  /**
   * Text messages a shop day (Africa/Nairobi): to one number; caused by one customer (an account,
   * else the client network that placed the order); and in all. A message over one is not sent
   * (recorded as skipped, with why); the day's total running out also e-mails staff and admins once.
   */
  budgets: { perRecipientPerDay: number; perSenderPerDay: number; perDay: number };
}

const budgetsOf = (s: z.infer<typeof smsSchema>): SmsConfig['budgets'] => ({
  perRecipientPerDay: s.SMS_PER_RECIPIENT_PER_DAY,
  perSenderPerDay: s.SMS_PER_SENDER_PER_DAY,
  perDay: s.SMS_PER_DAY,
});

const isLocal = (u: string) => /^(localhost|127\.|\[?::1\]?|0\.0\.0\.0)/.test(new URL(u).hostname);

/**
 * Reads the SMS_* and AT_* settings. Africa's Talking needs its username, key and the inbound
 * token; production refuses the simulator and a gateway address that is not https or points at
 * this machine.
 */
export function readSmsConfig(
  source: Record<string, string>,
  nodeEnv: string,
): { sms: SmsConfig | null; problems: string[] } {
  const parsed = smsSchema.safeParse(source);
  if (!parsed.success)
    return {
      sms: null,
      problems: parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`),
    };
  const s = parsed.data;
  if (s.SMS_PROVIDER === 'off') return { sms: null, problems: [] };
  const production = nodeEnv === 'production';
  if (s.SMS_PROVIDER === 'simulator') {
    if (production)
      return { sms: null, problems: ['SMS_PROVIDER=simulator is for development and tests only'] };
    return {
      sms: {
        provider: 'simulator',
        baseUrl: (s.SMS_BASE_URL ?? SIMULATOR_URL).replace(/\/$/, ''),
        username: s.AT_USERNAME ?? 'sandbox',
        apiKey: s.AT_API_KEY ?? 'local-sms-api-key-not-secret',
        senderId: s.AT_SENDER_ID ?? '',
        inboundToken: s.SMS_INBOUND_TOKEN ?? SIMULATOR_INBOUND_TOKEN,
        retryIntervalMs: s.SMS_RETRY_INTERVAL_MS,
        maxAttempts: s.SMS_MAX_ATTEMPTS,
        budgets: budgetsOf(s),
      },
      problems: [],
    };
  }
  const problems: string[] = [];
  if (!s.AT_USERNAME) problems.push('AT_USERNAME is required when SMS_PROVIDER is africastalking');
  if (!s.AT_API_KEY) problems.push('AT_API_KEY is required when SMS_PROVIDER is africastalking');
  if (!s.SMS_INBOUND_TOKEN)
    problems.push('SMS_INBOUND_TOKEN is required when SMS_PROVIDER is africastalking');
  const baseUrl = (
    s.SMS_BASE_URL ?? (s.AT_USERNAME === 'sandbox' ? AT_BASE_URLS.sandbox : AT_BASE_URLS.live)
  ).replace(/\/$/, '');
  if (production && (!baseUrl.startsWith('https://') || isLocal(baseUrl)))
    problems.push('SMS_BASE_URL must be an https address of the gateway in production');
  if (problems.length) return { sms: null, problems };
  return {
    sms: {
      provider: 'africastalking',
      baseUrl,
      username: s.AT_USERNAME!,
      apiKey: s.AT_API_KEY!,
      senderId: s.AT_SENDER_ID ?? '',
      inboundToken: s.SMS_INBOUND_TOKEN!,
      retryIntervalMs: s.SMS_RETRY_INTERVAL_MS,
      maxAttempts: s.SMS_MAX_ATTEMPTS,
      budgets: budgetsOf(s),
    },
    problems: [],
  };
}
