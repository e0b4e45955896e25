/**
 * A real shop's contacts are required in production: the built API refuses to start while the
 * shop's phone, WhatsApp number or e-mail is unset or left at the development placeholder, and
 * while SMS would go to the local simulator or has no gateway keys.
 */
import { API_MAIN, assertBuilt, PRODUCTION_ENV, runApiToExit } from './support/api-process';

const UNREACHABLE_DB = 'mongodb://127.0.0.1:9/spc';

describe(`node ${API_MAIN} with NODE_ENV=production: the shop's contacts and SMS`, () => {
  beforeAll(() => assertBuilt());

  it("names each of the shop's contacts left unset", async () => {
    const env: Record<string, string> = { ...PRODUCTION_ENV, MONGODB_URI: UNREACHABLE_DB };
    delete env.SHOP_PHONE;
    delete env.SHOP_EMAIL;
    delete env.BUSINESS_WHATSAPP;
    const { code, output } = await runApiToExit(env);
    expect(code).not.toBe(0);
    expect(output).toContain('The API cannot start');
    for (const key of ['SHOP_PHONE', 'SHOP_EMAIL', 'BUSINESS_WHATSAPP'])
      expect(output).toContain(`${key} is required in production (the shop's real contact)`);
  });

  it('refuses the development placeholders, however they are spaced', async () => {
    const { code, output } = await runApiToExit({
      ...PRODUCTION_ENV,
      MONGODB_URI: UNREACHABLE_DB,
      SHOP_PHONE: '+254700000000',
      SHOP_EMAIL: 'info@seedlings.local',
      BUSINESS_WHATSAPP: '254700000000',
    });
    expect(code).not.toBe(0);
    for (const key of ['SHOP_PHONE', 'SHOP_EMAIL', 'BUSINESS_WHATSAPP'])
      expect(output).toContain(
        `${key} must be the shop's real contact, not the development placeholder`,
      );
  });

  it('refuses the SMS simulator, and Africa’s Talking without its keys', async () => {
    const simulator = await runApiToExit({
      ...PRODUCTION_ENV,
      MONGODB_URI: UNREACHABLE_DB,
      SMS_PROVIDER: 'simulator',
    });
    expect(simulator.code).not.toBe(0);
    expect(simulator.output).toContain('SMS_PROVIDER=simulator is for development and tests only');
    const noKeys = await runApiToExit({
      ...PRODUCTION_ENV,
      MONGODB_URI: UNREACHABLE_DB,
      SMS_PROVIDER: 'africastalking',
    });
    expect(noKeys.code).not.toBe(0);
    expect(noKeys.output).toContain('AT_USERNAME is required when SMS_PROVIDER is africastalking');
    expect(noKeys.output).toContain('AT_API_KEY is required when SMS_PROVIDER is africastalking');
  });
});
