import { ConfigError, loadConfig } from './app-config';
import { SANDBOX_IN_PRODUCTION_WORDS } from './mpesa-config';

const production = {
  NODE_ENV: 'production',
  MONGODB_URI: 'mongodb://db.internal:27017/spc',
  JWT_SECRET: '7f3c9a1e5b2d8f4a6c0e9b3d7a1f5c8e2b6d4a0f',
  ADMIN_EMAIL: 'owner@seedlings.co.ke',
  ADMIN_PASSWORD: 'Strong#Pass9',
  STOREFRONT_URL: 'https://shop.seedlings.co.ke',
  BACKOFFICE_URL: 'https://admin.seedlings.co.ke',
  SHOP_PHONE: '+254 712 345 678',
  SHOP_EMAIL: 'hello@seedlings.co.ke',
  BUSINESS_WHATSAPP: '254712345678',
};

const daraja = {
  MPESA_ENV: 'production',
  MPESA_CONSUMER_KEY: 'key',
  MPESA_CONSUMER_SECRET: 'secret',
  MPESA_SHORTCODE: '4123456',
  MPESA_PASSKEY: 'passkey',
  MPESA_CALLBACK_BASE_URL: 'https://api.seedlings.co.ke/',
  MPESA_CALLBACK_TOKEN: 'c'.repeat(32),
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

describe('M-Pesa settings', () => {
  it('leave M-Pesa Express off unless MPESA_ENV says otherwise', () => {
    expect(loadConfig({}).mpesa).toBeNull();
    expect(loadConfig({ ...production, MPESA_ENV: 'off' }).mpesa).toBeNull();
  });

  it('point production at Daraja with the callback URL carrying the token', () => {
    expect(loadConfig({ ...production, ...daraja }).mpesa).toMatchObject({
      env: 'production',
      baseUrl: 'https://api.safaricom.co.ke',
      shortcode: '4123456',
      partyB: '4123456',
      transactionType: 'CustomerPayBillOnline',
      callbackUrl: `https://api.seedlings.co.ke/api/payments/mpesa/callback/${'c'.repeat(32)}`,
      callbackAllowedIps: [],
    });
    const sandbox = { ...production, ...daraja, MPESA_ENV: 'sandbox' };
    expect(
      loadConfig({ ...sandbox, MPESA_ALLOW_SANDBOX_IN_PRODUCTION: SANDBOX_IN_PRODUCTION_WORDS })
        .mpesa?.baseUrl,
    ).toBe('https://sandbox.safaricom.co.ke');
  });

  it("refuse Daraja's sandbox (no real money) in production unless told so in words", () => {
    const sandbox = { ...production, ...daraja, MPESA_ENV: 'sandbox' };
    for (const allow of [undefined, 'yes', 'true'])
      expect(
        problemsOf(allow ? { ...sandbox, MPESA_ALLOW_SANDBOX_IN_PRODUCTION: allow } : sandbox),
      ).toEqual([expect.stringContaining('MPESA_ENV=sandbox takes no real money')]);
    // Development and tests use the sandbox freely.
    expect(problemsOf({ ...daraja, MPESA_ENV: 'sandbox' })).toEqual([]);
  });

  it('name every missing credential', () => {
    expect(problemsOf({ ...production, MPESA_ENV: 'production' })).toEqual([
      'MPESA_CONSUMER_KEY is required when MPESA_ENV is production',
      'MPESA_CONSUMER_SECRET is required when MPESA_ENV is production',
      'MPESA_SHORTCODE is required when MPESA_ENV is production',
      'MPESA_PASSKEY is required when MPESA_ENV is production',
      'MPESA_CALLBACK_BASE_URL is required when MPESA_ENV is production',
      'MPESA_CALLBACK_TOKEN is required when MPESA_ENV is production',
    ]);
  });

  it('refuse a short callback token, a plain-http callback in production and the simulator in production', () => {
    expect(problemsOf({ ...production, ...daraja, MPESA_CALLBACK_TOKEN: 'short' })).toEqual([
      'MPESA_CALLBACK_TOKEN must be 24-128 letters, digits, _ or -',
    ]);
    expect(
      problemsOf({ ...production, ...daraja, MPESA_CALLBACK_BASE_URL: 'http://api.example' }),
    ).toEqual(['MPESA_CALLBACK_BASE_URL must be https in production']);
    expect(problemsOf({ ...production, MPESA_ENV: 'sandbox-local' })).toEqual([
      'MPESA_ENV=sandbox-local is for development and tests only',
    ]);
  });

  it('need nothing else for sandbox-local: the simulator and a callback to this API', () => {
    expect(loadConfig({ MPESA_ENV: 'sandbox-local', PORT: '3101' }).mpesa).toMatchObject({
      baseUrl: 'http://127.0.0.1:4010',
      shortcode: '174379',
      callbackUrl: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:3101\/api\/payments\/mpesa\/callback\/[\w-]{24,}$/,
      ),
    });
  });
});
