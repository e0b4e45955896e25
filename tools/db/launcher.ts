/**
 * Gives the API, the tests and the scripts a MongoDB-compatible server without a manual step. It tries,
 * in order: MONGODB_URI; a `mongod` on PATH; MongoDB downloaded by mongodb-memory-server where the
 * internet is reachable; SecantusDB, a single-node MongoDB wire-protocol server on WiredTiger made as
 * a test surrogate for MongoDB: `secantusd-rs` (the faster Rust build) when it is on PATH or in
 * `.data/bin` (`npm run db:build-native`), else `secantusd-py` installed once, pinned, into a Python
 * venv under `.data/secantus-py`. It says which it chose, reuses a server it started earlier, listens
 * on loopback only and stops what it started. SPC_DB_SERVER names the one kind to try (to compare
 * the Python and Rust servers, say).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  statSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { DATA_DIR } from '../paths';

export type DatabaseKind = 'env' | 'mongod' | 'memory-server' | 'secantus-rs' | 'secantus-py';

export interface DatabaseHandle {
  kind: DatabaseKind;
  /** Server URI without a database name, e.g. `mongodb://127.0.0.1:40123/`. */
  uri: string;
  /** True when this call started the server (and `stop` will stop it). */
  startedHere: boolean;
  description: string;
  /** The server's process, when it runs on this machine (for CPU readings). */
  pid?: number;
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

type StartedKind = 'mongod' | 'secantus-rs' | 'secantus-py';

/** The pinned SecantusDB releases (PyPI `SecantusDB`, crates.io `secantus-mdb`). */
export const SECANTUS_PY_VERSION = '0.7.0b3';
export const SECANTUS_RS_VERSION = '0.5.3-beta.196';
const SECANTUS_PY_VENV = path.join(DATA_DIR, 'secantus-py');
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
  // SPC_DB_SERVER=secantus-py (or mongod, memory-server, secantus-rs) tries that one only.
  const only = process.env.SPC_DB_SERVER as DatabaseKind | undefined;
  const tries = (kind: DatabaseKind) => !only || only === kind;

  const mongod = tries('mongod') ? which('mongod') : undefined;
  if (mongod) return startProcess('mongod', mongodArgs(mongod, dir, port), dir, port, options, log);
  attempts.push('no mongod on PATH');

  const memory = tries('memory-server') ? await tryMemoryServer(dir, port, log) : undefined;
  if (memory) return memory;
  attempts.push('mongodb-memory-server could not download MongoDB (no internet)');

  const native = tries('secantus-rs') ? findSecantusRs() : undefined;
  if (native)
    return startProcess('secantus-rs', secantusArgs(native, dir, port), dir, port, options, log);
  attempts.push('no secantusd-rs on PATH or in .data/bin');

  const python = tries('secantus-py')
    ? installSecantusPy(log)
    : { failed: `SPC_DB_SERVER=${only}` };
  if (typeof python === 'string')
    return startProcess('secantus-py', secantusArgs(python, dir, port), dir, port, options, log);
  attempts.push(python.failed);

  throw new Error(
    `No MongoDB-compatible database could be started (${attempts.join('; ')}). Any one of these works:\n` +
      '  - set MONGODB_URI to a MongoDB 6+ server (e.g. mongodb://127.0.0.1:27017/spc)\n' +
      '  - install MongoDB so that `mongod` is on PATH\n' +
      '  - install Python 3.10+ with its venv module (Debian: apt-get install python3-venv) and run\n' +
      `    again: SecantusDB ${SECANTUS_PY_VERSION} is then installed from PyPI into .data/secantus-py\n` +
      '  - build the Rust SecantusDB server with `npm run db:build-native` (cargo, a few minutes)\n' +
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

/**
 * `--standalone`, as production's mongod runs: without it SecantusDB advertises a one-node replica
 * set, and the driver would then connect to the address it advertises rather than the one it was
 * given (around a test's TCP proxy, for one). Started in its data folder so that no
 * `./secantusd.toml` of the caller's working directory is picked up.
 */
function secantusArgs(bin: string, dir: string, port: number): [string, string[]] {
  const storage = path.join(dir, 'secantus');
  mkdirSync(storage, { recursive: true });
  return [
    bin,
    [
      '--standalone',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--storage-path',
      storage,
      '--log-level',
      'WARNING',
    ],
  ];
}

const DESCRIPTIONS: Record<StartedKind, string> = {
  mongod: 'mongod',
  'secantus-rs': 'SecantusDB (secantusd-rs, Rust)',
  'secantus-py': 'SecantusDB (secantusd-py, Python)',
};

async function startProcess(
  kind: StartedKind,
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
    cwd: dir,
    stdio: ['ignore', out, out],
    detached: options.detached ?? false,
  });
  closeSync(out);
  const uri = `mongodb://127.0.0.1:${port}/`;
  const description = `${DESCRIPTIONS[kind]} (${bin}, data in ${path.relative(process.cwd(), dir) || dir})`;
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
    pid,
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

function findSecantusRs(): string | undefined {
  const candidates = [which('secantusd-rs'), path.join(DATA_DIR, 'bin', 'secantusd-rs')];
  return candidates.find((c): c is string => !!c && existsSync(c) && answersHelp(c));
}

function answersHelp(bin: string): boolean {
  return spawnSync(bin, ['--help'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
}

/**
 * `secantusd-py` from a venv under `.data/secantus-py`, installed once with pip at the pinned
 * version (prebuilt wheels: seconds). The venv is made again when its version is not the pinned one.
 */
function installSecantusPy(log: (m: string) => void): string | { failed: string } {
  const bin = path.join(SECANTUS_PY_VENV, 'bin', 'secantusd-py');
  const stamp = path.join(SECANTUS_PY_VENV, 'installed-version');
  const ready = () =>
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === SECANTUS_PY_VERSION &&
    existsSync(bin);
  if (ready()) return bin;
  // Launchers started side by side on a fresh clone (the e2e tests beside the journeys) install
  // it once: the first takes the lock, the others wait and find it installed.
  return withLock(`${SECANTUS_PY_VENV}.lock`, () => (ready() ? bin : installVenv(bin, stamp, log)));
}

/**
 * Runs `fn` holding a lock directory (made atomically by `mkdir`), waiting while another process
 * holds it; a lock older than 10 minutes was left by a process that died, and is taken over.
 */
function withLock<T>(lock: string, fn: () => T): T {
  mkdirSync(path.dirname(lock), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function installVenv(
  bin: string,
  stamp: string,
  log: (m: string) => void,
): string | { failed: string } {
  const python = which('python3');
  if (!python) return { failed: 'no python3 to install SecantusDB' };
  log(`installing SecantusDB ${SECANTUS_PY_VERSION} from PyPI into .data/secantus-py (once)...`);
  rmSync(SECANTUS_PY_VENV, { recursive: true, force: true });
  const venv = spawnSync(python, ['-m', 'venv', SECANTUS_PY_VENV], { encoding: 'utf8' });
  if (venv.status !== 0) {
    return {
      failed: `python3 -m venv failed (${firstLine(venv.stderr || venv.stdout)}; Debian: apt-get install python3-venv)`,
    };
  }
  const pip = spawnSync(
    path.join(SECANTUS_PY_VENV, 'bin', 'pip'),
    ['install', '-q', '--disable-pip-version-check', `SecantusDB==${SECANTUS_PY_VERSION}`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (pip.status !== 0 || !existsSync(bin)) {
    return {
      failed: `pip install SecantusDB==${SECANTUS_PY_VERSION} failed: ${pip.stderr.trim()}`,
    };
  }
  writeFileSync(stamp, `${SECANTUS_PY_VERSION}\n`);
  log(`installed ${bin}`);
  return bin;
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
