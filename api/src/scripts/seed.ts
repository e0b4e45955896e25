/**
 * `npm run seed`: fills the database with the demo data of every module that registers a seeder.
 * With `--if-empty` it does nothing when the database already holds documents (how `npm start` calls it).
 */
import 'reflect-metadata';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { createApp } from '../app.factory';
import { loadConfig } from '../config/app-config';
import { SeedModule } from '../seed/seed.module';
import { demoDataRefusal } from '../seed/production-guard';
import { SEEDERS, type Seeder } from '../seed/seed.types';

/**
 * Empty as far as demo data goes: no catalogue and no orders. Accounts do not count (starting the
 * app has already created the admin).
 */
const DEMO_COLLECTIONS = ['categories', 'products', 'orders'];

async function isEmpty(connection: Connection): Promise<boolean> {
  for (const name of DEMO_COLLECTIONS) {
    if ((await connection.db!.collection(name).countDocuments({}, { limit: 1 })) > 0) return false;
  }
  return true;
}

async function main(): Promise<void> {
  const ifEmpty = process.argv.includes('--if-empty');
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const refusal = demoDataRefusal(config, process.env);
  if (refusal) {
    console.error(`[seed] ${refusal}`);
    process.exitCode = 1;
    return;
  }
  // The seeders are mounted here only: the API itself carries no demo data. Demo orders never send
  // text messages: their phone numbers may be real people's.
  const app = await createApp({ ...config, sms: null }, { imports: [SeedModule.register()] });
  await app.init();
  try {
    if (ifEmpty && !(await isEmpty(app.get<Connection>(getConnectionToken())))) {
      console.log('[seed] the database already has a catalogue or orders; nothing seeded');
      return;
    }
    const seeders = app.get<Seeder[]>(SEEDERS, { strict: false });
    for (const seeder of seeders) console.log(`[seed] ${seeder.name}: ${await seeder.seed()}`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error('[seed] failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
