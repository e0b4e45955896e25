/**
 * Runs a command with MONGODB_URI pointing at a database: the one given, or one the launcher starts
 * (and stops again when the command ends). Usage: tsx tools/db/with-db.ts <command> [args...]
 */
import { spawn } from 'node:child_process';
import { WORKSPACE_ROOT } from '../paths';
import { ensureDatabase, withDatabaseName } from './launcher';

export const DEFAULT_DATABASE = 'spc';

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error('usage: tsx tools/db/with-db.ts <command> [args...]');
    process.exit(2);
  }
  const db = await ensureDatabase();
  const uri = db.kind === 'env' ? db.uri : withDatabaseName(db.uri, DEFAULT_DATABASE);
  const child = spawn(command, args, {
    stdio: 'inherit',
    cwd: WORKSPACE_ROOT,
    env: { ...process.env, MONGODB_URI: uri },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('exit', async (code, signal) => {
    await db.stop();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

main().catch((error: Error) => {
  console.error(`[db] ${error.message}`);
  process.exit(1);
});
