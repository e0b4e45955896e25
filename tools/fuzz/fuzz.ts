/**
 * `npm run fuzz`: schemathesis (PyPI) against the API's own OpenAPI document, with every check on —
 * server errors, status codes and response bodies that match the document, invalid data refused,
 * authentication not ignored — once anonymous and once each as a customer, a staff member and the
 * admin. The built API runs as in production on a private, seeded database; the rate limits are out
 * of the way (they are tested on their own). Exits non-zero when schemathesis reports a failure.
 *
 * Schemathesis comes from a virtual environment in ~/.cache/spc-shop/ (made here when missing, pinned).
 * Settings: FUZZ_MAX_EXAMPLES (examples per operation, 10), FUZZ_SKIP_BUILD=1, FUZZ_ROLES
 * (comma-separated subset of anonymous,customer,staff,admin), FUZZ_PATHS (a regular expression:
 * only the paths it matches, e.g. `quotations` while working on them). The admin pass runs on an API and
 * database of its own (it deletes and deactivates things), beside the others.
 */
import { spawn, spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { LOCAL_INBOUND_TOKEN } from '../sms/simulator';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';
import {
  apiEnv,
  buildApi,
  freePort,
  privateDatabase,
  say,
  seed,
  startApi,
  stopApi,
  type ApiProcess,
} from '../drills/support';

const SCHEMATHESIS = 'schemathesis==4.32.5';
// Outside the checkout (a fresh clone reuses it), one per version.
const VENV = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
  'spc-shop',
  SCHEMATHESIS.replace('==', '-'),
);
const ST = path.join(VENV, 'bin', 'st');
const MAX_EXAMPLES = process.env.FUZZ_MAX_EXAMPLES ?? '10';
const ROLES = (process.env.FUZZ_ROLES ?? 'anonymous,customer,staff,admin').split(',');
const ADMIN = { email: 'fuzz-admin@example.co.ke', password: 'Fuzz#Admin2026' };
const log = (message: string) => say('fuzz', message);

function ensureSchemathesis(): void {
  const version = spawnSync(ST, ['--version'], { encoding: 'utf8' });
  if (version.status === 0 && version.stdout.includes(SCHEMATHESIS.split('==')[1]!)) return;
  log(`installing ${SCHEMATHESIS} into ${VENV}`);
  for (const [command, args] of [
    ['python3', ['-m', 'venv', VENV]],
    [
      path.join(VENV, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', SCHEMATHESIS],
    ],
  ] as const) {
    const res = spawnSync(command, args, { stdio: 'inherit' });
    if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
  }
}

async function call<T>(base: string, route: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const signIn = async (base: string, email: string, password: string) =>
  (await call<{ data: { accessToken: string } }>(base, '/api/auth/login', { email, password })).data
    .accessToken;

/** A bearer token per role; the customer and staff member are made through the API itself. */
async function tokens(base: string): Promise<Record<string, string | undefined>> {
  const admin = await signIn(base, ADMIN.email, ADMIN.password);
  const staff = { email: 'fuzz-staff@example.co.ke', password: 'Fuzz#Staff2026' };
  await call(
    base,
    '/api/staff',
    { fullName: 'Fuzz Staff', phoneNumber: '0711000222', ...staff },
    admin,
  );
  const customer = { email: 'fuzz-customer@example.co.ke', password: 'Fuzz#Customer2026' };
  await call(base, '/api/auth/register', {
    fullName: 'Fuzz Customer',
    phoneNumber: '0711000333',
    ...customer,
  });
  return {
    anonymous: undefined,
    customer: await signIn(base, customer.email, customer.password),
    staff: await signIn(base, staff.email, staff.password),
    admin,
  };
}

/** One schemathesis pass; its output goes to `<reports>/<role>.log` and is printed when it ends. */
async function fuzz(
  api: ApiProcess,
  role: string,
  token: string | undefined,
  reports: string,
): Promise<boolean> {
  log(`schemathesis as ${role}, ${MAX_EXAMPLES} examples per operation`);
  const output = path.join(reports, `${role}.log`);
  const out = openSync(output, 'w');
  const child = spawn(
    ST,
    [
      '--config-file',
      path.join(__dirname, 'schemathesis.toml'),
      'run',
      `${api.base}/api/docs-json`,
      '--url',
      api.base,
      '--checks',
      'all',
      '--max-examples',
      MAX_EXAMPLES,
      '--seed',
      process.env.FUZZ_SEED ?? '20261122',
      '--generation-deterministic',
      '--request-timeout',
      '30',
      '--no-color',
      '--warnings',
      'off',
      '--report',
      'junit',
      '--report-junit-path',
      path.join(reports, `${role}.xml`),
      ...(token ? ['--header', `Authorization: Bearer ${token}`] : []),
      ...(process.env.FUZZ_PATHS ? ['--include-path-regex', process.env.FUZZ_PATHS] : []),
    ],
    { stdio: ['ignore', out, out] },
  );
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  closeSync(out);
  console.log(`\n===== schemathesis as ${role} =====\n${readFileSync(output, 'utf8')}`);
  return code === 0;
}

/** One API as production runs it, on a private seeded database, with its simulators and tokens. */
interface FuzzWorld {
  api: ApiProcess;
  tokens: Record<string, string | undefined>;
  stop(): Promise<void>;
}

async function startWorld(dir: string): Promise<FuzzWorld> {
  const db = await privateDatabase(dir);
  let api: ApiProcess | undefined;
  // M-Pesa Express is on, against the local Daraja simulator, so its routes are fuzzed for real.
  const [apiPort, mpesaPort, smsPort] = [await freePort(), await freePort(), await freePort()];
  const simulator = spawn('node', ['--import', 'tsx', 'tools/mpesa/simulator.ts'], {
    cwd: WORKSPACE_ROOT,
    env: { ...process.env, MPESA_SIMULATOR_PORT: String(mpesaPort) },
    stdio: 'ignore',
  });
  // Text messages too, against the local Africa's Talking simulator: a guest's data request
  // sends its code, and the inbound route takes replies (off, both would answer 503 or 404).
  const smsSimulator = spawn('node', ['--import', 'tsx', 'tools/sms/simulator.ts'], {
    cwd: WORKSPACE_ROOT,
    env: {
      ...process.env,
      SMS_SIMULATOR_PORT: String(smsPort),
      SMS_INBOUND_URL: `http://127.0.0.1:${apiPort}/api/sms/inbound/${LOCAL_INBOUND_TOKEN}`,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    simulator.kill('SIGTERM');
    smsSimulator.kill('SIGTERM');
    await stopApi(api);
    await db.stop();
  };
  try {
    const env = apiEnv(dir, db.uri, {
      NODE_ENV: 'test', // sandbox-local M-Pesa is refused in production
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SWAGGER_ENABLED: 'true',
      // argon2id at its least cost (production refuses it): the fuzzer signs up thousands of times.
      PASSWORD_HASH_MEMORY_KIB: '1024',
      PASSWORD_HASH_PASSES: '1',
      MPESA_ENV: 'sandbox-local',
      MPESA_BASE_URL: `http://127.0.0.1:${mpesaPort}`,
      MPESA_CALLBACK_BASE_URL: `http://127.0.0.1:${apiPort}`,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: `http://127.0.0.1:${smsPort}`,
    });
    seed(env);
    api = await startApi(env, { quiet: true, port: apiPort });
    return { api, tokens: await tokens(api.base), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(): Promise<void> {
  ensureSchemathesis();
  const dir = path.join(DATA_DIR, 'fuzz');
  rmSync(dir, { recursive: true, force: true });
  const reports = path.join(dir, 'reports');
  mkdirSync(reports, { recursive: true });
  if (process.env.FUZZ_SKIP_BUILD !== '1' || !existsSync(path.join(WORKSPACE_ROOT, 'api/dist')))
    buildApi();
  // The admin pass deletes and deactivates things, so it has an API and a database of its own; the
  // other roles share one. All passes run side by side, each schemathesis a process of its own.
  const groups = [ROLES.filter((r) => r !== 'admin'), ROLES.filter((r) => r === 'admin')].filter(
    (roles) => roles.length,
  );
  const worlds: FuzzWorld[] = [];
  const failed: string[] = [];
  try {
    for (const i of groups.keys()) worlds.push(await startWorld(path.join(dir, `api-${i}`)));
    await Promise.all(
      groups.flatMap((roles, i) =>
        roles.map(async (role) => {
          const world = worlds[i]!;
          if (!(await fuzz(world.api, role, world.tokens[role], reports))) failed.push(role);
        }),
      ),
    );
  } finally {
    for (const world of worlds) await world.stop();
  }
  if (failed.length) {
    log(`schemathesis found failures as: ${failed.join(', ')} (reports in ${reports})`);
    process.exit(1);
  }
  log('no failures');
}

main().catch((error: Error) => {
  log(error.message);
  process.exit(1);
});
