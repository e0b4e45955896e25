/**
 * `npm run db -- start|stop|status`: keep a local database running between commands (start), see
 * what is running (status), stop it (stop). `npm start` and the tests reuse one started here.
 */
import { ensureDatabase, recordedState, stopRecorded } from './launcher';

async function main(): Promise<void> {
  const command = process.argv[2] ?? 'status';
  if (command === 'start') {
    const db = await ensureDatabase({ detached: true });
    console.log(`[db] ${db.description} at ${db.uri}${db.startedHere ? '' : ' (already running)'}`);
    console.log('[db] stop it with: npm run db -- stop');
  } else if (command === 'stop') {
    console.log((await stopRecorded()) ? '[db] stopped' : '[db] nothing was running');
  } else if (command === 'status') {
    const state = recordedState();
    console.log(
      state ? `[db] ${state.description} at ${state.uri} (pid ${state.pid})` : '[db] not running',
    );
  } else {
    console.error('usage: npm run db -- start|stop|status');
    process.exit(2);
  }
}

main().catch((error: Error) => {
  console.error(`[db] ${error.message}`);
  process.exit(1);
});
