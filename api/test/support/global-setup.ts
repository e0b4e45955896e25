import { ensureDatabase, type DatabaseHandle } from '../../../tools/db/launcher';

declare global {
  var __SPC_E2E_DB__: DatabaseHandle | undefined;
}

/** One database server for the whole e2e run; each test file makes its own database in it. */
export default async function globalSetup(): Promise<void> {
  const db = await ensureDatabase({ log: (m) => console.log(`\n[db] ${m}`) });
  process.env.SPC_E2E_MONGODB_URI = db.uri;
  globalThis.__SPC_E2E_DB__ = db;
}
