/**
 * Production settings: the built API refuses to start without real secrets, the admin and the two
 * sites' addresses, and Swagger UI follows SWAGGER_ENABLED.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withDatabaseName } from '../../tools/db/launcher';
import {
  API_MAIN,
  ApiProcess,
  assertBuilt,
  freePort,
  PRODUCTION_ENV,
  runApiToExit,
} from './support/api-process';
import { createTestApp, serverUri, type TestApp } from './support/test-app';

const REQUIRED = [
  'MONGODB_URI',
  'JWT_SECRET',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'STOREFRONT_URL',
  'BACKOFFICE_URL',
];

describe(`node ${API_MAIN} with NODE_ENV=production`, () => {
  beforeAll(() => assertBuilt());

  it('exits with a message naming every missing setting', async () => {
    const { code, output } = await runApiToExit({ NODE_ENV: 'production' });
    expect(code).not.toBe(0);
    expect(output).toContain('The API cannot start');
    for (const key of REQUIRED) expect(output).toContain(`${key} is required in production`);
  });

  it('names the one setting left out', async () => {
    const env: Record<string, string> = {
      ...PRODUCTION_ENV,
      MONGODB_URI: 'mongodb://127.0.0.1:9/spc',
    };
    delete env.BACKOFFICE_URL;
    const { code, output } = await runApiToExit(env);
    expect(code).not.toBe(0);
    expect(output).toContain('BACKOFFICE_URL is required in production');
    expect(output).not.toContain('JWT_SECRET');
  });

  it('refuses short or development secrets and a malformed address', async () => {
    const { code, output } = await runApiToExit({
      ...PRODUCTION_ENV,
      MONGODB_URI: 'mongodb://127.0.0.1:9/spc',
      JWT_SECRET: 'too-short',
      STOREFRONT_URL: 'shop.example',
      TRUST_PROXY: 'everyone',
    });
    expect(code).not.toBe(0);
    expect(output).toContain('JWT_SECRET must be at least 32 characters');
    expect(output).toContain('STOREFRONT_URL');
    expect(output).toContain('TRUST_PROXY');
  });
});

describe(`node ${API_MAIN} with NODE_ENV=production and settings for a demo`, () => {
  beforeAll(() => assertBuilt());
  const base = { ...PRODUCTION_ENV, MONGODB_URI: 'mongodb://127.0.0.1:9/spc' };
  const sandbox = {
    MPESA_ENV: 'sandbox',
    MPESA_CONSUMER_KEY: 'key',
    MPESA_CONSUMER_SECRET: 'secret',
    MPESA_SHORTCODE: '174379',
    MPESA_PASSKEY: 'passkey',
    MPESA_CALLBACK_BASE_URL: 'https://api.seedlings.example',
    MPESA_CALLBACK_TOKEN: 'callback-token-0123456789abcdef',
  };

  it("refuses Daraja's sandbox (no real money), a JWT secret of 32 'a' and a short admin password", async () => {
    const { code, output } = await runApiToExit({
      ...base,
      ...sandbox,
      JWT_SECRET: 'a'.repeat(32),
      ADMIN_PASSWORD: 'Owner#2026',
    });
    expect(code).not.toBe(0);
    expect(output).toContain('JWT_SECRET is guessable');
    expect(output).toContain(
      'JWT_ALLOW_WEAK_SECRET=yes-anyone-who-guesses-it-can-sign-in-as-admin',
    );
    expect(output).toContain('ADMIN_PASSWORD must follow the staff rule');
    const mpesa = await runApiToExit({ ...base, ...sandbox });
    expect(mpesa.code).not.toBe(0);
    expect(mpesa.output).toContain('MPESA_ENV=sandbox takes no real money');
    expect(mpesa.output).toContain('MPESA_ALLOW_SANDBOX_IN_PRODUCTION=yes-no-real-money-is-taken');
  });

  it('starts with them when told so in words', async () => {
    const api = new ApiProcess('prod-demo', await freePort(), {
      ...base,
      ...sandbox,
      MONGODB_URI: withDatabaseName(serverUri(), `e2e_proddemo_${randomBytes(3).toString('hex')}`),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'spc-prod-demo-')),
      JWT_SECRET: 'a'.repeat(32),
      JWT_ALLOW_WEAK_SECRET: 'yes-anyone-who-guesses-it-can-sign-in-as-admin',
      MPESA_ALLOW_SANDBOX_IN_PRODUCTION: 'yes-no-real-money-is-taken',
    });
    try {
      await api.ready();
      const options = await api.http().get('/api/payments/options').expect(200);
      expect(options.body.mpesaExpress).toBe(true);
    } finally {
      await api.stop();
    }
  }, 90_000);
});

describe('Swagger UI in production', () => {
  let on: TestApp;
  let off: TestApp;

  beforeAll(async () => {
    on = await createTestApp({ name: 'prod_swagger_on', env: { ...PRODUCTION_ENV } });
    off = await createTestApp({
      name: 'prod_swagger_off',
      env: { ...PRODUCTION_ENV, SWAGGER_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  it('is served by default, for integrators', async () => {
    await on.http().get('/api/docs').expect(200);
    const doc = await on.http().get('/api/docs-json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
  });

  it('is not served with SWAGGER_ENABLED=false', async () => {
    await off.http().get('/api/docs').expect(404);
    await off.http().get('/api/docs-json').expect(404);
    await off.http().get('/api/health').expect(200);
  });
});
