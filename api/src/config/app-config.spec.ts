import { ConfigError, loadConfig } from './app-config';
import { WEAK_SECRET_WORDS, weakSecret } from './production-rules';

const productionEnv = {
  NODE_ENV: 'production',
  MONGODB_URI: 'mongodb://db.internal:27017/spc',
  JWT_SECRET: '7f3c9a1e5b2d8f4a6c0e9b3d7a1f5c8e2b6d4a0f',
  ADMIN_EMAIL: 'Owner@Seedlings.co.ke',
  ADMIN_PASSWORD: 'Strong#Pass9',
  STOREFRONT_URL: 'https://shop.seedlings.co.ke',
  BACKOFFICE_URL: 'https://admin.seedlings.co.ke/',
  SHOP_PHONE: '+254 712 345 678',
  SHOP_EMAIL: 'hello@seedlings.co.ke',
  BUSINESS_WHATSAPP: '254712345678',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('gives development working defaults', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.port).toBe(3000);
    expect(config.corsOrigins).toEqual(['http://localhost:5173', 'http://localhost:5174']);
    expect(config.admin.usingDevDefaults).toBe(true);
  });

  it('ships the limits of issue 26 and refuses an address budget smaller than one order', () => {
    const config = loadConfig({});
    expect(config.orders.maxUnpaidUnitsPerAddress).toBe(4000);
    expect(config.rateLimits.contact).toBe(5);
    // eTIMS is off unless asked for; the simulator's settings need nothing else.
    expect(loadConfig({}).etims).toBeNull();
    expect(loadConfig({ ETIMS_ENV: 'sandbox-local' }).etims).toMatchObject({
      baseUrl: 'http://127.0.0.1:4030/etims-api',
      sendEveryMs: 10_000,
      retryMs: 60_000,
    });
    expect(() => loadConfig({ ETIMS_ENV: 'sandbox' })).toThrow(/ETIMS_PIN is required/);
    expect(loadConfig({ SMS_PROVIDER: 'simulator', MPESA_ENV: 'sandbox-local' })).toMatchObject({
      sms: { budgets: { perRecipientPerDay: 10, perSenderPerDay: 20, perDay: 500 } },
      mpesa: { budgets: { perPhonePerDay: 10, perDay: 1000 } },
    });
    expect(
      problemsOf({ ORDER_MAX_UNITS_PER_ORDER: '3000', ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '2500' }),
    ).toEqual([
      'ORDER_MAX_UNPAID_UNITS_PER_ADDRESS (2500) must be at least ORDER_MAX_UNITS_PER_ORDER (3000): no order that large could be placed',
    ]);
  });

  it('refuses to start production without its secrets, naming each missing setting', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toEqual([
      'MONGODB_URI is required in production',
      'JWT_SECRET is required in production',
      'ADMIN_EMAIL is required in production',
      'ADMIN_PASSWORD is required in production',
      'STOREFRONT_URL is required in production',
      'BACKOFFICE_URL is required in production',
      "SHOP_PHONE is required in production (the shop's real contact)",
      "BUSINESS_WHATSAPP is required in production (the shop's real contact)",
      "SHOP_EMAIL is required in production (the shop's real contact)",
    ]);
  });

  it("refuses the shop's development placeholder contacts in production", () => {
    const problems = problemsOf({
      ...productionEnv,
      SHOP_PHONE: '+254700000000',
      BUSINESS_WHATSAPP: '254700000000',
      SHOP_EMAIL: 'info@seedlings.local',
    });
    expect(problems).toEqual([
      "SHOP_PHONE must be the shop's real contact, not the development placeholder",
      "BUSINESS_WHATSAPP must be the shop's real contact, not the development placeholder",
      "SHOP_EMAIL must be the shop's real contact, not the development placeholder",
    ]);
    expect(loadConfig(productionEnv).shopContacts).toEqual({
      phone: '+254 712 345 678',
      whatsapp: '254712345678',
      email: 'hello@seedlings.co.ke',
    });
  });

  it('refuses the SMS simulator and missing gateway keys or inbound token in production', () => {
    expect(problemsOf({ ...productionEnv, SMS_PROVIDER: 'simulator' })).toEqual([
      'SMS_PROVIDER=simulator is for development and tests only',
    ]);
    expect(problemsOf({ ...productionEnv, SMS_PROVIDER: 'africastalking' })).toEqual([
      'AT_USERNAME is required when SMS_PROVIDER is africastalking',
      'AT_API_KEY is required when SMS_PROVIDER is africastalking',
      'SMS_INBOUND_TOKEN is required when SMS_PROVIDER is africastalking',
    ]);
    expect(
      problemsOf({
        ...productionEnv,
        SMS_PROVIDER: 'africastalking',
        AT_USERNAME: 'spcshop',
        AT_API_KEY: 'k'.repeat(40),
        SMS_INBOUND_TOKEN: 'short',
      }),
    ).toEqual(['SMS_INBOUND_TOKEN must be 24-128 letters, digits, _ or -']);
    const keys = {
      AT_USERNAME: 'spcshop',
      AT_API_KEY: 'k'.repeat(40),
      SMS_INBOUND_TOKEN: 'inbound-token-0123456789abcdef',
    };
    expect(
      problemsOf({
        ...productionEnv,
        SMS_PROVIDER: 'africastalking',
        ...keys,
        SMS_BASE_URL: 'http://127.0.0.1:4020',
      }),
    ).toEqual(['SMS_BASE_URL must be an https address of the gateway in production']);
    const on = loadConfig({ ...productionEnv, SMS_PROVIDER: 'africastalking', ...keys });
    expect(on.sms).toMatchObject({
      provider: 'africastalking',
      baseUrl: 'https://api.africastalking.com',
      username: 'spcshop',
      inboundToken: 'inbound-token-0123456789abcdef',
    });
    expect(loadConfig(productionEnv).sms).toBeNull();
  });

  it('refuses the public development secrets in production', () => {
    const problems = problemsOf({
      ...productionEnv,
      JWT_SECRET: 'dev-only-access-secret-change-me-0123456789abcdef',
    });
    expect(problems).toEqual(['JWT_SECRET must not be the development default in production']);
  });

  it('refuses a guessable JWT secret in production unless told so in words', () => {
    for (const secret of ['a'.repeat(32), 'ab'.repeat(20), 'password-password-password-passw'])
      expect(problemsOf({ ...productionEnv, JWT_SECRET: secret })).toEqual([
        expect.stringContaining('JWT_SECRET is guessable'),
      ]);
    expect(
      problemsOf({ ...productionEnv, JWT_SECRET: 'a'.repeat(32), JWT_ALLOW_WEAK_SECRET: 'yes' }),
    ).toHaveLength(1);
    expect(
      problemsOf({
        ...productionEnv,
        JWT_SECRET: 'a'.repeat(32),
        JWT_ALLOW_WEAK_SECRET: WEAK_SECRET_WORDS,
      }),
    ).toEqual([]);
    expect(weakSecret('0f9e2a7c4b1d8e3f6a5c2b9d0e7f4a1c')).toBe(false);
  });

  it('refuses an ADMIN_PASSWORD shorter than the staff rule in production', () => {
    expect(problemsOf({ ...productionEnv, ADMIN_PASSWORD: 'Owner#2026' })).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD must follow the staff rule: .*at least 12 characters/),
    ]);
  });

  it('hashes passwords at argon2id defaults, and refuses less than OWASP floor in production', () => {
    expect(loadConfig({}).passwordHash).toEqual({ memoryKib: 65_536, passes: 3 });
    expect(
      loadConfig({ PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_PASSES: '1' }).passwordHash,
    ).toEqual({
      memoryKib: 1024,
      passes: 1,
    });
    const cheapSettings: Record<string, string>[] = [
      { PASSWORD_HASH_MEMORY_KIB: '19455' },
      { PASSWORD_HASH_PASSES: '1' },
    ];
    for (const cheap of cheapSettings)
      expect(problemsOf({ ...productionEnv, ...cheap })).toEqual([
        expect.stringContaining('must be at least 19456 and 2 in production'),
      ]);
    expect(
      problemsOf({
        ...productionEnv,
        PASSWORD_HASH_MEMORY_KIB: '19456',
        PASSWORD_HASH_PASSES: '2',
      }),
    ).toEqual([]);
    expect(problemsOf({ PASSWORD_HASH_MEMORY_KIB: '512' })).toEqual([
      expect.stringContaining('PASSWORD_HASH_MEMORY_KIB'),
    ]);
  });

  it('reads the booking settings and the seasons, refusing ones that are not', () => {
    expect(loadConfig({}).bookings).toEqual({
      depositPercent: 30,
      balanceDays: 7,
      releaseDeposit: 'keep',
      seasons: [
        { key: 'long-rains', from: '03-01', to: '05-31' },
        { key: 'short-rains', from: '10-01', to: '12-31' },
      ],
      leadDays: 42,
    });
    expect(
      loadConfig({ BOOKING_DEPOSIT_PERCENT: '50', SEASON_LONG_RAINS: '02-15..06-15' }).bookings,
    ).toMatchObject({ depositPercent: 50, seasons: [{ from: '02-15', to: '06-15' }, {}] });
    expect(problemsOf({ BOOKING_DEPOSIT_PERCENT: '0' })).toEqual([
      expect.stringMatching(/^BOOKING_DEPOSIT_PERCENT /),
    ]);
    expect(problemsOf({ BOOKING_RELEASE_DEPOSIT: 'maybe' })).toEqual([
      expect.stringMatching(/^BOOKING_RELEASE_DEPOSIT /),
    ]);
    for (const bad of ['March..May', '02-30..05-31', '05-31..03-01'])
      expect(problemsOf({ SEASON_SHORT_RAINS: bad })).toEqual([
        expect.stringMatching(/^SEASON_SHORT_RAINS /),
      ]);
  });

  it('names a malformed setting', () => {
    expect(problemsOf({ PORT: 'eighty' })).toEqual([expect.stringMatching(/^PORT /)]);
    expect(problemsOf({ MONGODB_URI: 'postgres://x' })).toEqual([
      'MONGODB_URI must start with mongodb:// or mongodb+srv://',
    ]);
    expect(problemsOf({ JWT_SECRET: 'short' })).toEqual([
      'JWT_SECRET must be at least 32 characters',
    ]);
  });

  it('reads a complete production environment, lower-casing the admin e-mail and trimming URLs', () => {
    const config = loadConfig(productionEnv);
    expect(config.env).toBe('production');
    expect(config.admin).toEqual({
      email: 'owner@seedlings.co.ke',
      password: 'Strong#Pass9',
      usingDevDefaults: false,
    });
    expect(config.backofficeUrl).toBe('https://admin.seedlings.co.ke');
    expect(config.corsOrigins).toEqual([
      'https://shop.seedlings.co.ke',
      'https://admin.seedlings.co.ke',
    ]);
    expect(config.log.pretty).toBe(false);
  });
});
