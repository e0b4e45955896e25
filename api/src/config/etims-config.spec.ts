import { readEtimsConfig, TEST_IN_PRODUCTION_WORDS } from './etims-config';

const live = {
  ETIMS_ENV: 'production',
  ETIMS_PIN: 'P051234567X',
  ETIMS_BRANCH: '00',
  ETIMS_DEVICE_SERIAL: 'KRA-OSCU-0001',
  ETIMS_CONSUMER_KEY: 'key',
  ETIMS_CONSUMER_SECRET: 'secret',
};

describe('eTIMS settings', () => {
  it('leave eTIMS off unless ETIMS_ENV says otherwise', () => {
    expect(readEtimsConfig({}, { nodeEnv: 'production' })).toEqual({ etims: null, problems: [] });
    expect(readEtimsConfig({ ETIMS_ENV: 'off' }, { nodeEnv: 'development' }).etims).toBeNull();
  });

  it('read the live settings with KRA’s hosts and the OAuth token', () => {
    const { etims, problems } = readEtimsConfig(live, { nodeEnv: 'production' });
    expect(problems).toEqual([]);
    expect(etims).toMatchObject({
      env: 'production',
      baseUrl: 'https://etims-api.kra.go.ke/etims-api',
      tokenUrl: 'https://api.kra.go.ke/v1/token/generate',
      portalUrl: 'https://etims.kra.go.ke',
      pin: 'P051234567X',
      branch: '00',
      deviceSerial: 'KRA-OSCU-0001',
      cmcKey: null,
      testEnvironment: false,
    });
  });

  it('need nothing set for the local simulator, and refuse it in production', () => {
    const { etims } = readEtimsConfig({ ETIMS_ENV: 'sandbox-local' }, { nodeEnv: 'development' });
    expect(etims).toMatchObject({
      baseUrl: 'http://127.0.0.1:4030/etims-api',
      cmcKey: 'local-cmc-key-not-secret',
      testEnvironment: true,
    });
    expect(
      readEtimsConfig({ ETIMS_ENV: 'sandbox-local' }, { nodeEnv: 'production' }).problems,
    ).toEqual(['ETIMS_ENV=sandbox-local is for development and tests only']);
  });

  it('refuse a test environment in production unless told in words', () => {
    const sandbox = { ...live, ETIMS_ENV: 'sandbox' };
    expect(readEtimsConfig(sandbox, { nodeEnv: 'production' }).problems[0]).toContain(
      'ETIMS_ALLOW_TEST_IN_PRODUCTION',
    );
    const sandboxUrl = { ...live, ETIMS_BASE_URL: 'https://etims-api-sbx.kra.go.ke/etims-api' };
    expect(readEtimsConfig(sandboxUrl, { nodeEnv: 'production' }).etims).toBeNull();
    expect(
      readEtimsConfig(
        { ...sandbox, ETIMS_ALLOW_TEST_IN_PRODUCTION: 'yes' },
        { nodeEnv: 'production' },
      ).etims,
    ).toBeNull();
    const allowed = readEtimsConfig(
      { ...sandbox, ETIMS_ALLOW_TEST_IN_PRODUCTION: TEST_IN_PRODUCTION_WORDS },
      { nodeEnv: 'production' },
    );
    expect(allowed.etims).toMatchObject({ env: 'sandbox', testEnvironment: true });
    expect(readEtimsConfig(sandbox, { nodeEnv: 'development' }).problems).toEqual([]);
  });

  it('name what is missing or malformed', () => {
    expect(
      readEtimsConfig(
        { ETIMS_ENV: 'sandbox', ETIMS_PIN: 'A12345', ETIMS_BRANCH: '0' },
        { nodeEnv: 'development' },
      ).problems,
    ).toEqual([
      "ETIMS_PIN must be the shop's KRA PIN: A or P, 9 digits, a letter",
      "ETIMS_BRANCH must be KRA's two-digit branch id (00 for the head office)",
    ]);
    expect(
      readEtimsConfig(
        { ETIMS_ENV: 'sandbox', ETIMS_PIN: 'P051234567X', ETIMS_CONSUMER_KEY: 'k' },
        { nodeEnv: 'development' },
      ).problems,
    ).toEqual([
      'ETIMS_DEVICE_SERIAL is required when ETIMS_ENV is sandbox',
      'ETIMS_CONSUMER_KEY and ETIMS_CONSUMER_SECRET are set together',
    ]);
  });

  it('send no token without a consumer key (a direct OSCU connection)', () => {
    const direct: Record<string, string> = { ...live };
    delete direct.ETIMS_CONSUMER_KEY;
    delete direct.ETIMS_CONSUMER_SECRET;
    expect(readEtimsConfig(direct, { nodeEnv: 'production' }).etims?.tokenUrl).toBeNull();
  });
});
