/**
 * `npm start`: the local database, demo data when it is empty, the API in watch mode and both apps'
 * dev servers, with one Ctrl-C stopping all of them (the database too, when this started it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ensureDatabase, withDatabaseName } from './db/launcher';
import { WORKSPACE_ROOT } from './paths';
import { LOCAL_INBOUND_TOKEN } from './sms/simulator';

const API_PORT = Number(process.env.PORT ?? 3000);
const API_URL = `http://localhost:${API_PORT}`;
const STOREFRONT_URL = 'http://localhost:5173';
const BACKOFFICE_URL = 'http://localhost:5174';
const COLORS: Record<string, string> = {
  api: '36',
  shop: '32',
  admin: '35',
  tsc: '90',
  mpesa: '33',
  sms: '34',
  etims: '93',
};

const children: ChildProcess[] = [];
const bin = (name: string) => path.join(WORKSPACE_ROOT, 'node_modules/.bin', name);

function run(
  label: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd = WORKSPACE_ROOT,
) {
  // Each child leads its own process group, so stopping it also stops what it started (npm -> vite).
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = `\x1b[${COLORS[label] ?? '0'}m[${label}]\x1b[0m `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) process.stdout.write(prefix + line + '\n');
    });
  }
  child.on('error', (error) =>
    process.stdout.write(`${prefix}could not start: ${error.message}\n`),
  );
  children.push(child);
  return child;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function step(command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const res = spawnSync(command, args, {
    cwd: WORKSPACE_ROOT,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

async function waitForHealth(timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${API_URL}/api/health`, { signal: AbortSignal.timeout(2000) })).ok)
        return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function main(): Promise<void> {
  const started = Date.now();
  const db = await ensureDatabase();
  const mongodbUri = db.kind === 'env' ? db.uri : withDatabaseName(db.uri, 'spc');
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    for (const child of children) killGroup(child, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    for (const child of children) killGroup(child, 'SIGKILL');
    await db.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const apiEnv: NodeJS.ProcessEnv = {
    NODE_ENV: 'development',
    MONGODB_URI: mongodbUri,
    PORT: String(API_PORT),
    STOREFRONT_URL,
    BACKOFFICE_URL,
  };
  step(bin('nx'), ['run', '@spc/api:build', '--output-style=stream']);
  step('node', ['--import', 'tsx', 'tools/seed/seed.ts', '--if-empty'], apiEnv);

  run('tsc', bin('tsc'), [
    '-p',
    'shared-contracts/tsconfig.lib.json',
    '--watch',
    '--preserveWatchOutput',
  ]);
  run('tsc', bin('tsc'), ['-p', 'api/tsconfig.build.json', '--watch', '--preserveWatchOutput']);
  if (process.env.MPESA_ENV === 'sandbox-local') {
    // M-Pesa Express against the local Daraja simulator (the API's sandbox-local default address).
    const port = process.env.MPESA_SIMULATOR_PORT ?? '4010';
    run('mpesa', 'node', ['--import', 'tsx', 'tools/mpesa/simulator.ts'], {
      MPESA_SIMULATOR_PORT: port,
    });
    Object.assign(apiEnv, {
      MPESA_BASE_URL: process.env.MPESA_BASE_URL ?? `http://127.0.0.1:${port}`,
    });
  }
  if (process.env.SMS_PROVIDER === 'simulator') {
    // Order text messages to the local Africa's Talking simulator (read them at <its url>/outbox).
    const port = process.env.SMS_SIMULATOR_PORT ?? '4020';
    // Replies (STOP) go to the API's inbound callback, with the token the API uses.
    run('sms', 'node', ['--import', 'tsx', 'tools/sms/simulator.ts'], {
      SMS_SIMULATOR_PORT: port,
      SMS_INBOUND_URL: `${API_URL}/api/sms/inbound/${process.env.SMS_INBOUND_TOKEN ?? LOCAL_INBOUND_TOKEN}`,
    });
    Object.assign(apiEnv, {
      SMS_BASE_URL: process.env.SMS_BASE_URL ?? `http://127.0.0.1:${port}`,
    });
  }
  // KRA eTIMS against the local OSCU simulator unless ETIMS_ENV says otherwise: each paid sale is
  // signed, its receipt carries the control unit number and the QR link (ETIMS_ENV=off: no eTIMS).
  const etimsEnv = process.env.ETIMS_ENV ?? 'sandbox-local';
  if (etimsEnv === 'sandbox-local') {
    const port = process.env.ETIMS_SIMULATOR_PORT ?? '4030';
    run('etims', 'node', ['--import', 'tsx', 'tools/etims/simulator.ts'], {
      ETIMS_SIMULATOR_PORT: port,
    });
    const local = `http://127.0.0.1:${port}`;
    Object.assign(apiEnv, {
      ETIMS_ENV: etimsEnv,
      ETIMS_BASE_URL: process.env.ETIMS_BASE_URL ?? `${local}/etims-api`,
      ETIMS_TOKEN_URL: process.env.ETIMS_TOKEN_URL ?? `${local}/v1/token/generate`,
      ETIMS_PORTAL_URL: process.env.ETIMS_PORTAL_URL ?? local,
    });
  }
  run('api', 'node', ['--watch', 'api/dist/main.js'], apiEnv);
  const appEnv = { VITE_API_URL: API_URL };
  run('shop', 'npm', ['run', 'dev', '-w', '@spc/storefront', '--', '--clearScreen=false'], appEnv);
  run('admin', 'npm', ['run', 'dev', '-w', '@spc/backoffice', '--', '--clearScreen=false'], appEnv);

  if (!(await waitForHealth())) {
    console.error('The API did not become healthy within two minutes; see the [api] lines above.');
    return stop(1);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`
\x1b[1mSeedling Propagation Centre is running\x1b[0m (ready in ${seconds} s; database: ${db.description})
  Storefront     ${STOREFRONT_URL}
  Back office    ${BACKOFFICE_URL}
  API            ${API_URL}/api   (Swagger UI: ${API_URL}/api/docs)
  Admin login    ${process.env.ADMIN_EMAIL ?? 'admin@spc.local'} / ${process.env.ADMIN_EMAIL ? '(your ADMIN_PASSWORD)' : 'Admin@1234'}   (development only)
  Staff login    staff@spc.local / Staff@1234   (demo data)
Press Ctrl-C to stop everything.
`);
}

main().catch((error: Error) => {
  console.error(error.message);
  for (const child of children) killGroup(child, 'SIGTERM');
  process.exit(1);
});
