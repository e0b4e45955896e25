/**
 * The browser journeys of one app (`storefront` or `backoffice`), as `npm test` runs them: a private
 * database seeded with the demo data, the API built and run as in production, the app built against
 * it and served by `vite preview`, then `<app>/e2e/*.e2e.ts` in headless Debian chromium (node:test).
 * Everything it starts, it stops. Usage: tsx tools/e2e/run-journeys.ts <storefront|backoffice>
 */
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, freePort, withDatabaseName } from '../db/launcher';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';
import { buildReleases } from './release-builds';
import { spaSecurityHeaders } from './security-headers';

const CHROMIUM = '/usr/bin/chromium';
/**
 * JOURNEYS_REUSE_BUILDS=1 (set by `npm test`, which has just built everything): run api/dist as it
 * is, and serve <app>/dist when it was built with the address placeholders (BUILD_PLACEHOLDERS),
 * filled in with this run's addresses, instead of building both again.
 */
const REUSE_BUILDS = process.env.JOURNEYS_REUSE_BUILDS === '1';

interface Addresses {
  api: string;
  storefront: string;
  backoffice: string;
}

/**
 * The build-time addresses as placeholders, the way the Docker image builds the apps (its start-up
 * script fills in API_URL and BACKOFFICE_URL the same way); `npm test` builds the apps with them.
 */
const BUILD_PLACEHOLDERS: Record<keyof Addresses, string> = {
  api: '__SPC_API_URL__',
  storefront: '__SPC_STOREFRONT_URL__',
  backoffice: '__SPC_BACKOFFICE_URL__',
};

const addressEnv = (a: Addresses) => ({
  VITE_API_URL: a.api,
  VITE_STOREFRONT_URL: a.storefront,
  VITE_BACKOFFICE_URL: a.backoffice,
});

/** Every file under `dir` (relative paths). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/**
 * Whether `dist` is a build made with the placeholders for every address the app reads: the
 * storefront reads the API's and the back office's, the back office the API's and the storefront's.
 */
function hasPlaceholders(dist: string, app: 'storefront' | 'backoffice'): boolean {
  if (!existsSync(path.join(dist, 'index.html'))) return false;
  const wanted = [
    BUILD_PLACEHOLDERS.api,
    app === 'storefront' ? BUILD_PLACEHOLDERS.backoffice : BUILD_PLACEHOLDERS.storefront,
  ];
  const scripts = filesUnder(dist)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(dist, f), 'latin1'));
  return wanted.every((p) => scripts.some((s) => s.includes(p)));
}

/** Copies the build to `outDir` with the placeholders replaced by the addresses. */
function fillInAddresses(dist: string, outDir: string, addresses: Addresses): void {
  cpSync(dist, outDir, { recursive: true });
  for (const file of filesUnder(outDir)) {
    const full = path.join(outDir, file);
    const text = readFileSync(full, 'latin1');
    if (!text.includes('__SPC_')) continue;
    let filled = text;
    for (const key of Object.keys(BUILD_PLACEHOLDERS) as (keyof Addresses)[])
      filled = filled.replaceAll(BUILD_PLACEHOLDERS[key], addresses[key]);
    writeFileSync(full, filled, 'latin1');
  }
}

async function main(): Promise<void> {
  const app = process.argv[2];
  if (app !== 'storefront' && app !== 'backoffice')
    throw new Error('usage: run-journeys.ts <storefront|backoffice>');
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: sudo bash tools/ci/ensure-tools.sh`);
  // JOURNEYS_ONLY=phones,security-headers (or a.e2e.ts,…) runs some of them (a developer's run; npm test runs all).
  const only = process.env.JOURNEYS_ONLY?.split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => (n.endsWith('.e2e.ts') ? n : `${n}.e2e.ts`));
  const specs = readdirSync(path.join(WORKSPACE_ROOT, app, 'e2e')).filter(
    (f) => f.endsWith('.e2e.ts') && (!only || only.includes(f)),
  );
  if (!specs.length) throw new Error(`no journeys in ${app}/e2e`);

  const work = mkdtempSync(path.join(os.tmpdir(), `spc-journeys-${app}-`));
  const db = await ensureDatabase({
    dir: path.join(DATA_DIR, `journeys-${app}`),
    private: true,
    log: (m) => console.log(`[db] ${m}`),
  });
  const children: ChildProcess[] = [];
  try {
    const [apiPort, appPort, otherPort] = [await freePort(), await freePort(), await freePort()];
    // M-Pesa Express against the local Daraja simulator (its own process: the journeys run in a
    // spawnSync that blocks this one); the journeys choose each prompt's outcome through it.
    const mpesa = `http://127.0.0.1:${await freePort()}`;
    children.push(
      spawn('node', ['--import', 'tsx', 'tools/mpesa/simulator.ts'], {
        cwd: WORKSPACE_ROOT,
        env: { ...process.env, MPESA_SIMULATOR_PORT: new URL(mpesa).port },
        stdio: 'inherit',
      }),
    );
    await waitFor(`${mpesa}/__simulator/pushes`);
    // Order text messages go to the local Africa's Talking simulator; journeys read its outbox.
    const sms = `http://127.0.0.1:${await freePort()}`;
    const smsInboundToken = `journeys-sms-inbound-${randomBytes(12).toString('hex')}`;
    children.push(
      spawn('node', ['--import', 'tsx', 'tools/sms/simulator.ts'], {
        cwd: WORKSPACE_ROOT,
        env: {
          ...process.env,
          SMS_SIMULATOR_PORT: new URL(sms).port,
          // Customers' replies (STOP) are posted to the API's inbound callback, with its token.
          SMS_INBOUND_URL: `http://127.0.0.1:${apiPort}/api/sms/inbound/${smsInboundToken}`,
        },
        stdio: 'inherit',
      }),
    );
    await waitFor(`${sms}/outbox`);
    // Paid sales are signed by the local KRA eTIMS (OSCU) simulator, from the API's queue after
    // the payment; journeys read what it signed.
    const etims = `http://127.0.0.1:${await freePort()}`;
    children.push(
      spawn('node', ['--import', 'tsx', 'tools/etims/simulator.ts'], {
        cwd: WORKSPACE_ROOT,
        env: { ...process.env, ETIMS_SIMULATOR_PORT: new URL(etims).port },
        stdio: 'inherit',
      }),
    );
    await waitFor(`${etims}/__simulator/invoices`);
    const api = `http://127.0.0.1:${apiPort}`;
    const site = `http://127.0.0.1:${appPort}`;
    const other = `http://127.0.0.1:${otherPort}`;
    const storefront = app === 'storefront' ? site : other;
    const backoffice = app === 'backoffice' ? site : other;
    const apiEnv = {
      ...process.env,
      NODE_ENV: 'test',
      MONGODB_URI: withDatabaseName(db.uri, 'journeys'),
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      STOREFRONT_URL: storefront,
      BACKOFFICE_URL: backoffice,
      UPLOADS_DIR: path.join(work, 'uploads'),
      DATA_DIR: work,
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000',
      // argon2id at its least cost (production refuses it): the journeys sign up and in often.
      PASSWORD_HASH_MEMORY_KIB: '1024',
      PASSWORD_HASH_PASSES: '1',
      ORDER_MAX_OPEN_UNPAID: '1000',
      ORDER_MAX_UNPAID_UNITS_PER_ADDRESS: '1000000',
      SMS_PER_SENDER_PER_DAY: '1000',
      SMS_PER_RECIPIENT_PER_DAY: '1000',
      MPESA_ENV: 'sandbox-local',
      MPESA_BASE_URL: mpesa,
      MPESA_CALLBACK_BASE_URL: api,
      MPESA_RECONCILE_AFTER_MS: '3000',
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sms,
      SMS_INBOUND_TOKEN: smsInboundToken,
      SMS_RETRY_INTERVAL_MS: '1000',
      ETIMS_ENV: 'sandbox-local',
      ETIMS_BASE_URL: `${etims}/etims-api`,
      ETIMS_TOKEN_URL: `${etims}/v1/token/generate`,
      ETIMS_PORTAL_URL: etims,
      ETIMS_RETRY_MS: '1000',
      // The journeys send more contact messages from one address than a shopper would.
      RATE_LIMIT_CONTACT_PER_HOUR: '1000',
      RATE_LIMIT_CONTACT_PER_MINUTE: '1000',
    };

    // The storefront's release journey needs two more builds of its own (they differ in a
    // build-time address): made now, beside the seeding and the API's start, not inside the journey.
    const releaseBuilds =
      app === 'storefront' && specs.includes('release.e2e.ts')
        ? buildReleases(path.join(work, 'release'), api)
        : undefined;
    // Errors are read when the builds are awaited, before the journeys start.
    releaseBuilds?.catch(() => undefined);

    if (REUSE_BUILDS) {
      if (!existsSync(path.join(WORKSPACE_ROOT, 'api/dist/main.js')))
        throw new Error('JOURNEYS_REUSE_BUILDS=1 but api/dist is missing: build the API first');
      console.log('[journeys] reusing api/dist (JOURNEYS_REUSE_BUILDS=1)');
    } else run('npx', ['nx', 'run', '@spc/api:build', '--output-style=stream']);
    // The demo data is seeded without eTIMS (as `npm start` seeds it): only the journeys' sales are signed.
    run('node', ['--import', 'tsx', 'tools/seed/seed.ts'], { ...apiEnv, ETIMS_ENV: 'off' });
    children.push(
      spawn('node', ['api/dist/main.js'], { cwd: WORKSPACE_ROOT, env: apiEnv, stdio: 'inherit' }),
    );
    await waitFor(`${api}/api/health`);

    const outDir = path.join(work, 'dist');
    const addresses = { api, storefront, backoffice };
    const built = path.join(WORKSPACE_ROOT, app, 'dist');
    if (REUSE_BUILDS && hasPlaceholders(built, app)) {
      // The build CI has just made with the address placeholders (as the Docker image builds the
      // apps), filled in with this run's addresses: the same bundle a build with them would give.
      console.log(`[journeys] reusing ${app}/dist, addresses filled in (JOURNEYS_REUSE_BUILDS=1)`);
      fillInAddresses(built, outDir, addresses);
    } else {
      run(
        'npx',
        ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
        { ...process.env, ...addressEnv(addresses) },
        path.join(WORKSPACE_ROOT, app),
      );
    }
    children.push(
      spawn(
        'npx',
        [
          'vite',
          'preview',
          '--outDir',
          outDir,
          '--host',
          '127.0.0.1',
          '--port',
          String(appPort),
          '--strictPort',
        ],
        {
          cwd: path.join(WORKSPACE_ROOT, app),
          // Served with the production Content-Security-Policy and framing protection.
          env: { ...process.env, SPC_PREVIEW_HEADERS: JSON.stringify(spaSecurityHeaders(api)) },
          stdio: 'ignore',
          detached: true,
        },
      ),
    );
    await waitFor(site);

    const release = releaseBuilds ? await releaseBuilds : undefined;
    const url = app === 'storefront' ? { STOREFRONT_URL: site } : { BACKOFFICE_URL: site };
    // One file at a time: a journey that pays an order must not move another one's sales figures.
    const files = specs.map((s) => path.join(app, 'e2e', s));
    run('npx', ['tsx', '--test', '--test-concurrency=1', ...files], {
      ...process.env,
      ...url,
      API_URL: api,
      MPESA_SIMULATOR_URL: mpesa,
      // Where the API files its e-mails (no SMTP here), for journeys that follow an e-mailed link.
      OUTBOX_DIR: path.join(work, 'outbox'),
      SMS_SIMULATOR_URL: sms,
      ETIMS_SIMULATOR_URL: etims,
      ...(release ? { RELEASE_BUILDS_DIR: release } : {}),
    });
  } finally {
    for (const child of children) {
      try {
        if (child.pid)
          process.kill(child.spawnargs[0] === 'npx' ? -child.pid : child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await db.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = WORKSPACE_ROOT,
): void {
  const res = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (res.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

main().catch((error: Error) => {
  console.error(`[journeys] ${error.message}`);
  process.exit(1);
});
