import { randomBytes } from 'node:crypto';
import type { ModuleMetadata } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { withDatabaseName } from '../../../tools/db/launcher';
import { createApp } from '../../src/app.factory';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { OrderPlacementService } from '../../src/orders/order-placement.service';

/** Settings of the abuse limits high enough to be out of the way. */
export const LIFTED_ABUSE_LIMITS = {
  RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
  LOGIN_LOCKOUT_AFTER_FAILURES: '100000',
  ORDER_MAX_OPEN_UNPAID: '100000',
  ORDER_MAX_UNITS_PER_ORDER: '1000000',
  ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '100000000',
  RATE_LIMIT_CONTACT_PER_MINUTE: '100000',
  SMS_PER_RECIPIENT_PER_DAY: '100000',
  SMS_PER_SENDER_PER_DAY: '100000',
  SMS_PER_DAY: '10000000',
  MPESA_PROMPTS_PER_PHONE_PER_DAY: '100000',
  MPESA_PROMPTS_PER_DAY: '10000000',
};

/**
 * argon2id at its least cost: the suites make and sign in thousands of accounts, and the library's
 * default cost (about 170 ms of CPU a hash here) was most of their CPU. Production refuses this
 * setting (`PASSWORD_HASH_*`); a suite that tests the cost sets its own.
 */
export const CHEAP_PASSWORD_HASH = { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_PASSES: '1' };

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  databaseName: string;
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Names the database (`e2e_<name>_<random>`) so a leftover one tells where it came from. */
  name: string;
  env?: Record<string, string>;
  /** Server URI to use instead of the run's shared one (e.g. a proxy in front of it). */
  serverUri?: string;
  imports?: ModuleMetadata['imports'];
  /** The database of another test app: a second API instance on the same data. */
  databaseName?: string;
}

/** This jest worker's database server (global-setup starts one per worker). */
export function serverUri(): string {
  const uris = (process.env.SPC_E2E_MONGODB_URIS ?? '').split(',').filter(Boolean);
  if (!uris.length)
    throw new Error('SPC_E2E_MONGODB_URIS is not set: run the e2e tests through their jest config');
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1));
  return uris[(worker - 1) % uris.length]!;
}

/** The real application on a fresh database of its own, ready for supertest. */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const databaseName =
    options.databaseName ?? `e2e_${options.name}_${randomBytes(3).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'silent',
    MONGODB_URI: withDatabaseName(options.serverUri ?? serverUri(), databaseName),
    // The per-account limits and the hoarding caps are lifted for suites that do not test them
    // (they sign in, upload and order far more than one customer would); a suite sets them to test.
    ...LIFTED_ABUSE_LIMITS,
    // Production refuses the least cost, so an app started as production keeps the default.
    ...(options.env?.NODE_ENV === 'production' ? {} : CHEAP_PASSWORD_HASH),
    ...options.env,
  });
  const app = await createApp(config, { imports: options.imports });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  // As before start-up reconciliation ran in the background: tests begin after it.
  await app.get(OrderPlacementService, { strict: false }).startup;
  return {
    app,
    config,
    databaseName,
    http: () => request(app.getHttpServer()),
    close: async () => {
      await app
        .get<Connection>(getConnectionToken())
        .dropDatabase()
        .catch(() => undefined);
      await app.close();
    },
  };
}
