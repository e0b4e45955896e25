/**
 * `npm run seed` (and `npm start`, the journeys, the drills and the Lighthouse run): the demo data
 * of api/dist/scripts/seed.js, with the Daraja simulator (tools/mpesa) running beside it, so that
 * the demo's M-Pesa money takes the API's own paths: a prompt the simulator pays, a refund it sends
 * back, paybill confirmations matched to their orders. The seed answers the simulator's callbacks
 * on a free port of its own; whatever M-Pesa the environment names is never used. In production
 * (a demo server) there is no simulator: the demo then has no M-Pesa payments.
 *
 * Usage: tsx tools/seed/seed.ts [--if-empty]   (MONGODB_URI and the API's settings from the environment)
 */
import { spawn } from 'node:child_process';
import { freePort } from '../db/launcher';
import { startDarajaSimulator } from '../mpesa/simulator';
import { WORKSPACE_ROOT } from '../paths';

/** Runs the seed script with the simulator beside it; resolves with its exit code. */
export async function seedDemo(
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const simulator =
    env.NODE_ENV === 'production' ? null : await startDarajaSimulator({ delayMs: 200 });
  try {
    const daraja = simulator
      ? { SEED_DARAJA_URL: simulator.url, SEED_CALLBACK_PORT: String(await freePort()) }
      : {};
    const child = spawn('node', ['api/dist/scripts/seed.js', ...args], {
      cwd: WORKSPACE_ROOT,
      env: { ...env, ...daraja },
      stdio: 'inherit',
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    process.on('SIGINT', forward('SIGINT'));
    process.on('SIGTERM', forward('SIGTERM'));
    return await new Promise<number>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
    );
  } finally {
    await simulator?.close();
  }
}

if (require.main === module) {
  seedDemo(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(`[seed] ${error.message}`);
      process.exit(1);
    },
  );
}
