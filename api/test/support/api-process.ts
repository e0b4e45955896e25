import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import type { AppConfig } from '../../src/config/app-config';

/** The built API (`npx nx run @spc/api:build`), as the image runs it. */
export const API_MAIN = path.resolve(__dirname, '../../dist/main.js');

/** Settings a production process must be given (the tests' values, not secrets). */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'e2e-access-secret-0123456789abcdef0123456789',
  ADMIN_EMAIL: 'owner@seedlings.example',
  ADMIN_PASSWORD: 'Owner#2026xy',
  STOREFRONT_URL: 'https://shop.seedlings.example',
  BACKOFFICE_URL: 'https://admin.seedlings.example',
  SHOP_PHONE: '+254 712 000 111',
  SHOP_EMAIL: 'shop@seedlings.example',
  BUSINESS_WHATSAPP: '254712000111',
} as const;

export function assertBuilt(): void {
  if (!existsSync(API_MAIN))
    throw new Error(`${API_MAIN} is missing: build the API first (npx nx run @spc/api:build)`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs the built API with exactly this environment (plus PATH) until it exits. */
export function runApiToExit(env: Record<string, string>, timeoutMs = 30_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [API_MAIN], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the API did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** One running API process; `http()` and `config` let the shared test helpers drive it. */
export class ApiProcess {
  stdout = '';
  stderr = '';
  private readonly child: ChildProcess;
  private exited: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly port: number,
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [API_MAIN], {
      env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What the shared helpers read of a test app's configuration. */
  get config(): Pick<AppConfig, 'admin'> {
    return {
      admin: {
        email: PRODUCTION_ENV.ADMIN_EMAIL,
        password: PRODUCTION_ENV.ADMIN_PASSWORD,
        usingDevDefaults: false,
      },
    };
  }

  http() {
    return request(this.baseUrl);
  }

  /** Resolves when GET /api/health answers 200; fails with the process's output if it died. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let dead = false;
    void this.exited.then(() => (dead = true));
    while (Date.now() < deadline) {
      if (dead) break;
      const ok = await fetch(`${this.baseUrl}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(
      `API ${this.name} did not become healthy${dead ? ' (it exited)' : ''}:\n${this.stdout}\n${this.stderr}`,
    );
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
