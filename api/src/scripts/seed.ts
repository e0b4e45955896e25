/**
 * `npm run seed`: fills the database with the demo data of every module that registers a seeder.
 * With `--if-empty` it does nothing when the database already holds documents (how `npm start` calls it).
 *
 * The demo's M-Pesa payments go through the Daraja simulator `npm run seed` starts beside this
 * script (tools/seed/seed.ts): SEED_DARAJA_URL is its address, and the seed answers its callbacks
 * on SEED_CALLBACK_PORT. M-Pesa settings in the environment are never used here: they may name a
 * Daraja that takes real money. Run alone, the demo has no M-Pesa payments.
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

/** The environment the seed's app reads: M-Pesa only against the seed's own simulator. */
function seedEnvironment(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const own = Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('MPESA_')));
  own.LOG_LEVEL = env.LOG_LEVEL ?? 'warn';
  if (!env.SEED_DARAJA_URL) return own;
  return {
    ...own,
    MPESA_ENV: 'sandbox-local',
    MPESA_BASE_URL: env.SEED_DARAJA_URL,
    PORT: env.SEED_CALLBACK_PORT,
    // The demo's paybill confirmations are handed to the confirmation service as Daraja's would
    // be; the simulator never saw them, so its status query could not confirm them.
    MPESA_C2B_VERIFY: 'false',
    MPESA_C2B_REGISTER_ON_START: 'false',
    MPESA_RECONCILE_AFTER_MS: '1000',
  };
}

async function main(): Promise<void> {
  const ifEmpty = process.argv.includes('--if-empty');
  const config = loadConfig(seedEnvironment(process.env));
  const refusal = demoDataRefusal(config, process.env);
  if (refusal) {
    console.error(`[seed] ${refusal}`);
    process.exitCode = 1;
    return;
  }
  // The seeders are mounted here only: the API itself carries no demo data. Demo orders never send
  // text messages: their phone numbers may be real people's.
  const app = await createApp({ ...config, sms: null }, { imports: [SeedModule.register()] });
  // With M-Pesa (the seed's simulator), Daraja's callbacks reach the seed's own routes.
  if (config.mpesa) await app.listen({ port: config.port, host: '127.0.0.1' });
  else await app.init();
  try {
    if (ifEmpty && !(await isEmpty(app.get<Connection>(getConnectionToken())))) {
      console.log('[seed] the database already has a catalogue or orders; nothing seeded');
      return;
    }
    const seeders = app.get<Seeder[]>(SEEDERS, { strict: false });
    for (const seeder of seeders) console.log(`[seed] ${seeder.name}: ${await seeder.seed()}`);
    const counts: string[] = [];
    for (const seeder of seeders) if (seeder.counts) counts.push(await seeder.counts());
    console.log(`[seed] the demo: ${counts.join('; ')}`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error('[seed] failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
