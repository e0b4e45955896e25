/**
 * Gives the API, the tests and the scripts a MongoDB-compatible server without a manual step. It tries,
 * in order: MONGODB_URI; a `mongod` on PATH; a `ferretdb` on PATH (FerretDB v1 on SQLite); MongoDB
 * downloaded by mongodb-memory-server where the internet is reachable; FerretDB v1.24.2 built with Go.
 * It says which it chose, reuses a server it started earlier, listens on loopback only and stops what
 * it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { DATA_DIR } from '../paths';

export type DatabaseKind = 'env' | 'mongod' | 'ferretdb' | 'memory-server';

export interface DatabaseHandle {
  kind: DatabaseKind;
  /** Server URI without a database name, e.g. `mongodb://127.0.0.1:40123/`. */
  uri: string;
  /** True when this call started the server (and `stop` will stop it). */
  startedHere: boolean;
  description: string;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** Folder for this server's files and state; defaults to `.data/db`. */
  dir?: string;
  /** Fixed port; by default a free loopback port is picked. */
  port?: number;
  /** Keep the server running after this process exits (for `npm run db start`). */
  detached?: boolean;
  /** Ignore MONGODB_URI and a running server; always start a new private one. */
  private?: boolean;
  log?: (message: string) => void;
}

interface State {
  kind: DatabaseKind;
  pid: number;
  port: number;
  uri: string;
  description: string;
}

const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
const FERRETDB_VERSION = 'v1.24.2';
const READY_TIMEOUT_MS = 60_000;
const INTERNET_PROBE_MS = 3000;

export function withDatabaseName(serverUri: string, name: string): string {
  const url = new URL(serverUri);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function ensureDatabase(options: LaunchOptions = {}): Promise<DatabaseHandle> {
  const log = options.log ?? ((m: string) => console.log(`[db] ${m}`));
  const dir = path.resolve(options.dir ?? path.join(DATA_DIR, 'db'));

  if (!options.private && process.env.MONGODB_URI) {
    const uri = process.env.MONGODB_URI;
    log(`using MONGODB_URI (${redact(uri)})`);
    return {
      kind: 'env',
      uri,
      startedHere: false,
      description: 'MONGODB_URI',
      stop: async () => {},
    };
  }

  const running = options.private ? undefined : await reuseRunning(dir);
  if (running) {
    log(`reusing ${running.description} at ${running.uri} (pid ${running.pid})`);
    return { ...running, startedHere: false, stop: async () => {} };
  }

  const port = options.port ?? (await freePort());
  const attempts: string[] = [];

  const mongod = which('mongod');
  if (mongod) return startProcess('mongod', mongodArgs(mongod, dir, port), dir, port, options, log);
  attempts.push('no mongod on PATH');

  const ferretdb = findFerretDb(dir);
  if (ferretdb)
    return startProcess('ferretdb', ferretArgs(ferretdb, dir, port), dir, port, options, log);
  attempts.push('no ferretdb on PATH or in .data/bin');

  const memory = await tryMemoryServer(dir, port, log);
  if (memory) return memory;
  attempts.push('mongodb-memory-server could not download MongoDB (no internet)');

  if (which('go')) {
    const built = buildFerretDb(log);
    if (built)
      return startProcess('ferretdb', ferretArgs(built, dir, port), dir, port, options, log);
    attempts.push('building FerretDB with Go failed (see above)');
  } else {
    attempts.push('no Go toolchain to build FerretDB');
  }

  throw new Error(
    `No MongoDB-compatible database could be started (${attempts.join('; ')}). Any one of these works:\n` +
      '  - set MONGODB_URI to a MongoDB 6+ server (e.g. mongodb://127.0.0.1:27017/spc)\n' +
      '  - install MongoDB so that `mongod` is on PATH\n' +
      `  - install Go 1.22+ and run again (FerretDB ${FERRETDB_VERSION} is then built into .data/bin)\n` +
      '  - put a FerretDB v1 binary named `ferretdb` on PATH\n' +
      '  - run where the internet is reachable so mongodb-memory-server can download MongoDB',
  );
}

/** Stops the server recorded in `dir` (started by an earlier, detached launch). */
export async function stopRecorded(options: { dir?: string } = {}): Promise<boolean> {
  const dir = path.resolve(options.dir ?? path.join(DATA_DIR, 'db'));
  const state = readState(dir);
  if (!state || !isAlive(state.pid)) {
    rmSync(stateFile(dir), { force: true });
    return false;
  }
  await killAndWait(state.pid);
  rmSync(stateFile(dir), { force: true });
  return true;
}

export function recordedState(options: { dir?: string } = {}): State | undefined {
  const dir = path.resolve(options.dir ?? path.join(DATA_DIR, 'db'));
  const state = readState(dir);
  return state && isAlive(state.pid) ? state : undefined;
}

function mongodArgs(bin: string, dir: string, port: number): [string, string[]] {
  const dbPath = path.join(dir, 'mongod');
  mkdirSync(dbPath, { recursive: true });
  return [bin, ['--dbpath', dbPath, '--bind_ip', '127.0.0.1', '--port', String(port), '--quiet']];
}

function ferretArgs(bin: string, dir: string, port: number): [string, string[]] {
  const sqlite = path.join(dir, 'ferretdb');
  const stateDir = path.join(dir, 'ferretdb-state');
  mkdirSync(sqlite, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  return [
    bin,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${sqlite}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${stateDir}`,
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=error',
    ],
  ];
}

async function startProcess(
  kind: 'mongod' | 'ferretdb',
  [bin, args]: [string, string[]],
  dir: string,
  port: number,
  options: LaunchOptions,
  log: (m: string) => void,
): Promise<DatabaseHandle> {
  mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, `${kind}.log`);
  const out = openSync(logFile, 'a');
  const child: ChildProcess = spawn(bin, args, {
    stdio: ['ignore', out, out],
    detached: options.detached ?? false,
  });
  closeSync(out);
  const uri = `mongodb://127.0.0.1:${port}/`;
  const description =
    kind === 'mongod'
      ? `mongod (${bin})`
      : `FerretDB v1 on SQLite (${bin}, data in ${path.relative(process.cwd(), dir) || dir})`;
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });

  try {
    await waitUntilReady(uri, () => exited);
  } catch (error) {
    child.kill('SIGKILL');
    const tail = existsSync(logFile)
      ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n')
      : '';
    throw new Error(`${description} did not become ready: ${(error as Error).message}\n${tail}`);
  }
  if (options.detached) child.unref();
  const pid = child.pid!;
  if (!options.private) {
    writeFileSync(
      stateFile(dir),
      JSON.stringify({ kind, pid, port, uri, description } satisfies State),
    );
  }
  log(`started ${description} at ${uri} (pid ${pid})`);

  return {
    kind,
    uri,
    startedHere: true,
    description,
    stop: async () => {
      await killAndWait(pid);
      if (!options.private) {
        const state = readState(dir);
        if (state?.pid === pid) rmSync(stateFile(dir), { force: true });
      }
    },
  };
}

async function tryMemoryServer(
  dir: string,
  port: number,
  log: (m: string) => void,
): Promise<DatabaseHandle | undefined> {
  if (!(await internetReachable())) return undefined;
  try {
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const dbPath = path.join(dir, 'memory-server');
    mkdirSync(dbPath, { recursive: true });
    const server = await MongoMemoryServer.create({
      instance: { ip: '127.0.0.1', port, dbPath, storageEngine: 'wiredTiger' },
    });
    const uri = server.getUri().replace(/\/[^/]*$/, '/');
    log(`started MongoDB from mongodb-memory-server at ${uri}`);
    return {
      kind: 'memory-server',
      uri,
      startedHere: true,
      description: 'MongoDB (mongodb-memory-server)',
      stop: async () => {
        await server.stop({ doCleanup: false });
      },
    };
  } catch (error) {
    log(`mongodb-memory-server failed: ${(error as Error).message}`);
    return undefined;
  }
}

async function internetReachable(): Promise<boolean> {
  try {
    const res = await fetch('https://fastdl.mongodb.org/', {
      method: 'HEAD',
      signal: AbortSignal.timeout(INTERNET_PROBE_MS),
    });
    return res.status < 500;
  } catch {
    return false;
  }
}

function findFerretDb(dir: string): string | undefined {
  const candidates = [
    which('ferretdb'),
    path.join(DATA_DIR, 'bin', 'ferretdb'),
    path.join(dir, 'bin', 'ferretdb'),
  ];
  return candidates.find((c): c is string => !!c && existsSync(c) && worksAsFerretDb(c));
}

function worksAsFerretDb(bin: string): boolean {
  const res = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return res.status === 0 && /version: v1\./.test(res.stdout);
}

/**
 * `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` is tried first. Where it cannot work
 * (the module proxy may refuse the version list the deprecation check asks for, and the released
 * module lacks the generated build/version/version.txt without which the binary panics at start), the
 * same module version is downloaded, version.txt written, and the binary built from its own go.mod.
 */
function buildFerretDb(log: (m: string) => void): string | undefined {
  const binDir = path.join(DATA_DIR, 'bin');
  const target = path.join(binDir, 'ferretdb');
  mkdirSync(binDir, { recursive: true });
  log(
    `building FerretDB ${FERRETDB_VERSION} with Go into .data/bin (once; takes a minute or two)...`,
  );

  const install = spawnSync(
    'go',
    ['install', `${FERRETDB_MODULE}/cmd/ferretdb@${FERRETDB_VERSION}`],
    {
      env: { ...process.env, GOBIN: binDir },
      encoding: 'utf8',
    },
  );
  if (install.status === 0 && worksAsFerretDb(target)) return target;
  log(
    `go install did not give a working binary (${firstLine(install.stderr) || 'binary lacks its version file'}); building from the module source instead`,
  );

  const download = spawnSync(
    'go',
    ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`],
    {
      encoding: 'utf8',
    },
  );
  if (download.status !== 0) {
    log(`go mod download failed: ${download.stderr || download.stdout}`);
    return undefined;
  }
  const moduleDir = (JSON.parse(download.stdout) as { Dir: string }).Dir;
  const src = path.join(os.tmpdir(), `ferretdb-src-${process.pid}`);
  rmSync(src, { recursive: true, force: true });
  cpSync(moduleDir, src, { recursive: true });
  spawnSync('chmod', ['-R', 'u+w', src]);
  writeFileSync(path.join(src, 'build/version/version.txt'), `${FERRETDB_VERSION}\n`);
  const build = spawnSync('go', ['build', '-o', target, './cmd/ferretdb'], {
    cwd: src,
    encoding: 'utf8',
  });
  rmSync(src, { recursive: true, force: true });
  if (build.status !== 0 || !worksAsFerretDb(target)) {
    log(`go build of FerretDB failed: ${build.stderr}`);
    return undefined;
  }
  chmodSync(target, 0o755);
  log(`built ${target}`);
  return target;
}

async function waitUntilReady(uri: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = 'not answering';
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone) throw new Error(`the server ${gone}`);
    if (
      await ping(uri).then(
        () => true,
        (e: Error) => ((lastError = e.message), false),
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer within ${READY_TIMEOUT_MS / 1000} s (${lastError})`);
}

async function ping(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => {});
  }
}

async function reuseRunning(dir: string): Promise<State | undefined> {
  const state = readState(dir);
  if (!state) return undefined;
  if (
    isAlive(state.pid) &&
    (await ping(state.uri).then(
      () => true,
      () => false,
    ))
  )
    return state;
  rmSync(stateFile(dir), { force: true });
  return undefined;
}

function stateFile(dir: string): string {
  return path.join(dir, 'server.json');
}

function readState(dir: string): State | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8')) as State;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function killAndWait(pid: number, graceMs = 10_000): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function firstLine(text: string | null | undefined): string {
  return (text ?? '').trim().split('\n')[0] ?? '';
}

function redact(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}
