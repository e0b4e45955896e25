/**
 * The stack `npm run lighthouse` audits when it starts its own: the database (through the
 * launcher), the demo data, the built API, and each storefront build served by `vite preview`, its
 * API calls going through the reverse proxy as its commit configures it (tools/docker/proxy, run by
 * the system nginx), as phones get the API in production. Without nginx, or with
 * LIGHTHOUSE_DIRECT_API=1, the builds call the API directly.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, freePort, withDatabaseName } from '../db/launcher';
import { DATA_DIR, WORKSPACE_ROOT } from '../paths';

/** One storefront audited: where it is served, how it reaches the API, its first load (gzip). */
export interface Site {
  label: string;
  url: string;
  /** "proxy" (its commit's tools/docker/proxy) or "direct". */
  apiPath?: string;
  firstLoad?: number;
}

const PROXY_TEMPLATE = 'tools/docker/proxy/default.conf.template';
const NGINX = '/usr/sbin/nginx';

export function run(command: string, args: string[], env = process.env, cwd = WORKSPACE_ROOT) {
  const res = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (res.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
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

/**
 * The storefront's sources at `ref` under .data (inside the workspace, so its packages resolve to
 * this checkout's node_modules); returns its storefront folder.
 */
function checkoutBase(ref: string): string {
  const root = path.join(DATA_DIR, 'lighthouse-base');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const archive = spawnSync(
    'git',
    ['archive', ref, 'storefront', 'shared-contracts', 'tsconfig.base.json'],
    { cwd: WORKSPACE_ROOT, maxBuffer: 512 * 1024 * 1024 },
  );
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  // The storefront's own packages (vite and its plugins) are not hoisted to the root.
  symlinkSync(
    path.join(WORKSPACE_ROOT, 'storefront', 'node_modules'),
    path.join(root, 'storefront', 'node_modules'),
  );
  return path.join(root, 'storefront');
}

/** The proxy template at `ref` (this checkout's when undefined); undefined when it has none. */
function proxyTemplate(ref: string | undefined): string | undefined {
  if (!ref) return readFileSync(path.join(WORKSPACE_ROOT, PROXY_TEMPLATE), 'utf8');
  const shown = spawnSync('git', ['show', `${ref}:${PROXY_TEMPLATE}`], {
    cwd: WORKSPACE_ROOT,
    encoding: 'utf8',
  });
  return shown.status === 0 ? shown.stdout : undefined;
}

/**
 * nginx running `template` rendered as compose renders it, its API host answering on
 * 127.0.0.1:`listen` and passing to the API at `apiPort`.
 */
function startProxy(template: string, listen: number, apiPort: number, dir: string): ChildProcess {
  mkdirSync(dir, { recursive: true });
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub));
  const vars: Record<string, string> = {
    SHOP_HOST: 'shop.localhost',
    ADMIN_HOST: 'admin.localhost',
    API_HOST: '127.0.0.1',
    DNS_RESOLVER: '127.0.0.1',
    API_UPSTREAM: `127.0.0.1:${apiPort}`,
    STOREFRONT_UPSTREAM: '127.0.0.1:9',
    BACKOFFICE_UPSTREAM: '127.0.0.1:9',
  };
  // The official image's envsubst: only the variables set are replaced.
  const site = template
    .replace(/\$\{([A-Z_][A-Z0-9_]*)\}/g, (whole, name: string) => vars[name] ?? whole)
    .replaceAll('listen 80', `listen 127.0.0.1:${listen}`);
  writeFileSync(path.join(dir, 'site.conf'), site);
  const temp = (name: string) =>
    `${name}_temp_path ${dir}/${name === 'client_body' ? 'body' : name};`;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  include ${dir}/site.conf;
}
`,
  );
  return spawn(NGINX, ['-c', path.join(dir, 'nginx.conf')], { stdio: 'inherit' });
}

/** Starts database, API and built storefront(s); returns their addresses and a stop function. */
export async function startStack(baseRef: string | undefined) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'spc-lighthouse-'));
  const db = await ensureDatabase({ dir: path.join(DATA_DIR, 'lighthouse-db') });
  const children: ChildProcess[] = [];
  const [apiPort, sitePort, basePort] = [await freePort(), await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}`;
  const proxied = !process.env.LIGHTHOUSE_DIRECT_API && spawnSync(NGINX, ['-v']).status === 0;
  const sites: Site[] = [];
  const stop = async () => {
    for (const child of children) {
      try {
        if (child.pid) process.kill(child.spawnargs[0] === 'npx' ? -child.pid : child.pid);
      } catch {
        // already gone
      }
    }
    await db.stop();
    rmSync(work, { recursive: true, force: true });
  };
  /** The API as the build of `ref` reaches it: through that commit's proxy, or directly. */
  const apiFor = async (label: string, ref: string | undefined) => {
    const template = proxied ? proxyTemplate(ref) : undefined;
    if (!template) return { url: api, apiPath: 'direct' };
    const listen = await freePort();
    children.push(startProxy(template, listen, apiPort, path.join(work, `proxy-${label}`)));
    await waitFor(`http://127.0.0.1:${listen}/api/health`);
    return { url: `http://127.0.0.1:${listen}`, apiPath: 'proxy' };
  };
  /** Builds the storefront in `dir` for `url`, serves it there, and records its first load. */
  const serve = async (label: string, dir: string, port: number, ref: string | undefined) => {
    const url = `http://127.0.0.1:${port}`;
    const outDir = path.join(work, `dist-${label}`);
    const through = await apiFor(label, ref);
    run(
      'npx',
      ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      { ...process.env, VITE_API_URL: through.url, VITE_STOREFRONT_URL: url },
      dir,
    );
    children.push(
      spawn(
        'npx',
        ['vite', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(port)],
        { cwd: dir, stdio: 'ignore', detached: true },
      ),
    );
    await waitFor(url);
    // The size budget's own measure (an ES module of the storefront's).
    const { measureBundle } = await import('../../storefront/src/budget/bundle-size.js');
    sites.push({
      label,
      url,
      apiPath: through.apiPath,
      firstLoad: measureBundle(outDir).firstLoad,
    });
  };
  try {
    const apiEnv = {
      ...process.env,
      NODE_ENV: 'test',
      MONGODB_URI: withDatabaseName(db.uri, 'lighthouse'),
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      STOREFRONT_URL: `http://127.0.0.1:${sitePort}`,
      // The older build is served where the back office would be: the API lets both origins in.
      ...(baseRef ? { BACKOFFICE_URL: `http://127.0.0.1:${basePort}` } : {}),
      UPLOADS_DIR: path.join(DATA_DIR, 'lighthouse-uploads'),
      DATA_DIR: work,
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
    };
    run('npx', ['nx', 'run', '@spc/api:build', '--output-style=stream']);
    run('node', ['--import', 'tsx', 'tools/seed/seed.ts', '--if-empty'], apiEnv);
    children.push(
      spawn('node', ['api/dist/main.js'], { cwd: WORKSPACE_ROOT, env: apiEnv, stdio: 'inherit' }),
    );
    await waitFor(`${api}/api/health`);
    if (baseRef) await serve('before', checkoutBase(baseRef), basePort, baseRef);
    const here = path.join(WORKSPACE_ROOT, 'storefront');
    await serve(baseRef ? 'after' : 'now', here, sitePort, undefined);
    return { sites, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
