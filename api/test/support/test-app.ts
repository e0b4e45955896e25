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
}

export function serverUri(): string {
  const uri = process.env.SPC_E2E_MONGODB_URI;
  if (!uri)
    throw new Error('SPC_E2E_MONGODB_URI is not set: run the e2e tests through their jest config');
  return uri;
}

/** The real application on a fresh database of its own, ready for supertest. */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const databaseName = `e2e_${options.name}_${randomBytes(3).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'silent',
    MONGODB_URI: withDatabaseName(options.serverUri ?? serverUri(), databaseName),
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
