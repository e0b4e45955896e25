import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@jest/types';
import { ensureDatabase, type DatabaseHandle } from '../../../tools/db/launcher';
import { DATA_DIR } from '../../../tools/paths';

declare global {
  var __SPC_E2E_DBS__: DatabaseHandle[] | undefined;
}

/**
 * A database server for each jest worker (one for the whole run when MONGODB_URI names one); each
 * test file makes its own database in its worker's server. A server of its own per worker keeps
 * one worker's heavy suite (thousands of orders written, a collection explained) from stalling the
 * other's requests: SecantusDB answered a connection after more than 30 s under CI's load.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const log = (m: string) => console.log(`\n[db] ${m}`);
  const first = await ensureDatabase({ log });
  const servers = [first];
  if (first.kind !== 'env')
    for (let worker = 2; worker <= Math.max(1, globalConfig.maxWorkers); worker++) {
      const dir = path.join(DATA_DIR, `db-e2e-worker-${worker}`);
      rmSync(dir, { recursive: true, force: true });
      servers.push(await ensureDatabase({ dir, private: true, log }));
    }
  process.env.SPC_E2E_MONGODB_URIS = servers.map((s) => s.uri).join(',');
  globalThis.__SPC_E2E_DBS__ = servers;
}
