/**
 * Production settings: the built API refuses to start without real secrets, the admin and the two
 * sites' addresses, and Swagger UI follows SWAGGER_ENABLED.
 */
import { API_MAIN, assertBuilt, PRODUCTION_ENV, runApiToExit } from './support/api-process';
import { createTestApp, type TestApp } from './support/test-app';

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
