/**
 * Production settings: the built API refuses to start without real secrets, the admin and the two
 * sites' addresses, and Swagger UI follows SWAGGER_ENABLED.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
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
import { UNTHROTTLED } from './support/identity';
import { decoded, outbox } from './support/mail';
import { createTestApp, serverUri, type TestApp } from './support/test-app';
import { sleep, waitFor } from './support/wait';

const WORKSPACE = path.resolve(__dirname, '../..');

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

describe('demo data never reaches a production database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ name: 'prod_no_demo', env: UNTHROTTLED });
  });
  afterAll(() => t.close());

  it('refuses to seed demo data into a production database unless forced', () => {
    assertBuilt();
    const seed = spawnSync(process.execPath, [path.join(WORKSPACE, 'api/dist/scripts/seed.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...PRODUCTION_ENV,
        MONGODB_URI: withDatabaseName(serverUri(), t.databaseName),
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(seed.status).not.toBe(0);
    expect(seed.stderr).toContain('Refusing to seed demo data: NODE_ENV is production');
    expect(seed.stderr).toContain('SEED_DEMO_DATA_IN_PRODUCTION=yes-i-know');
  });

  it('leaves no demo staff account to sign in with', async () => {
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ email: 'staff@spc.local', password: 'Staff@1234' });
    expect(res.status).toBe(401);
  });

  it('turns demo data off in docker compose and .env.example by default', () => {
    const compose = readFileSync(path.join(WORKSPACE, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('SEED_DEMO_DATA: ${SEED_DEMO_DATA:-false}');
    const example = readFileSync(path.join(WORKSPACE, '.env.example'), 'utf8');
    expect(example).toMatch(/^SEED_DEMO_DATA=false$/m);
  });
});

describe('production logs: no secrets, and a warning when no e-mail leaves', () => {
  let api: ApiProcess;
  let dataDir: string;
  const callbackToken = `live-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    assertBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'spc-prod-logs-'));
    api = new ApiProcess('prod_logs', await freePort(), {
      ...PRODUCTION_ENV,
      MONGODB_URI: withDatabaseName(serverUri(), `e2e_prod_logs_${randomBytes(3).toString('hex')}`),
      DATA_DIR: dataDir,
      UPLOADS_DIR: path.join(dataDir, 'uploads'),
      LOG_LEVEL: 'info',
      // M-Pesa on, so the callbacks below carry the shop's own token and reach their handlers;
      // Daraja itself is not reachable (its calls fail and are logged as such).
      MPESA_ENV: 'sandbox',
      MPESA_ALLOW_SANDBOX_IN_PRODUCTION: 'yes-no-real-money-is-taken',
      MPESA_BASE_URL: 'http://127.0.0.1:9',
      MPESA_CONSUMER_KEY: 'key',
      MPESA_CONSUMER_SECRET: 'secret',
      MPESA_SHORTCODE: '174379',
      MPESA_PASSKEY: 'passkey',
      MPESA_INITIATOR_NAME: 'initiator',
      MPESA_SECURITY_CREDENTIAL: 'credential',
      MPESA_CALLBACK_BASE_URL: 'https://api.seedlings.example',
      MPESA_CALLBACK_TOKEN: callbackToken,
    });
    await api.ready();
  }, 90_000);
  afterAll(async () => {
    await api.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('warns loudly at start-up that production without SMTP sends no e-mail', () => {
    expect(api.stdout).toContain('SMTP_URL is not set: NO E-MAIL LEAVES THIS SERVER');
  });

  it('writes the reset link to the outbox only, never to the log', async () => {
    await api
      .http()
      .post('/api/auth/forgot/password')
      .send({ email: PRODUCTION_ENV.ADMIN_EMAIL })
      .expect(200);
    const mail = await waitFor(
      async () => outbox(dataDir),
      (m) => m.length > 0,
      10_000,
    );
    const code = /resetPassword\/([\w-]+)/.exec(decoded(mail[0]!))![1]!;
    await sleep(300);
    expect(api.stdout).not.toContain(code);
  });

  it('keeps the M-Pesa callback token out of the log, on every route Daraja is given', async () => {
    const notice = {
      TransID: 'TLOG123456',
      TransTime: '20260315101010',
      TransAmount: '150',
      BusinessShortCode: '174379',
      BillRefNumber: 'SPNOSUCHORDER',
      MSISDN: '254712345678',
      FirstName: 'Wanjiku',
    };
    const result = {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: 'log-originator-1',
        ConversationID: 'AG_20260315_log',
        TransactionID: 'TLOG123456',
      },
    };
    const stk = {
      Body: {
        stkCallback: {
          MerchantRequestID: 'log-merchant-1',
          CheckoutRequestID: 'ws_CO_log_1',
          ResultCode: 1032,
          ResultDesc: 'Request cancelled by user',
        },
      },
    };
    const calls: [string, object][] = [
      ['/api/payments/mpesa/callback', stk],
      ['/api/payments/mpesa/c2b/validation', notice],
      ['/api/payments/mpesa/c2b/confirmation', notice],
      ['/api/payments/mpesa/result/status', result],
      ['/api/payments/mpesa/result/reversal', result],
      ['/api/payments/mpesa/result/b2c', result],
      ['/api/payments/mpesa/result/timeout', result],
    ];
    for (const [route, body] of calls) {
      const res = await api.http().post(`${route}/${callbackToken}`).send(body);
      expect({ route, status: res.status }).toEqual({ route, status: 200 });
      // The same URL mistyped (answered 404) is logged too.
      await api.http().post(`${route.toUpperCase()}//${callbackToken}/`).send(body).expect(404);
    }
    await sleep(500);
    for (const [route] of calls) expect(api.stdout).toContain(`"url":"${route}/[redacted]"`);
    expect(api.stdout).not.toContain(callbackToken);
    expect(api.stderr).not.toContain(callbackToken);
  });
});
