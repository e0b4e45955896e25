/**
 * The two storefront builds the release journey deploys one after the other: real `vite build`s
 * that differ only in the shop's phone number. The journeys runner makes them in the background
 * while the API is seeded and started (RELEASE_BUILDS_DIR); run alone, the journey makes them itself.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../paths';

export const PHONE_A = '+254 711 000 001';
export const PHONE_B = '+254 722 000 002';

/** `<dir>/a` and `<dir>/b`: the first and the second release. */
export const releaseDirs = (dir: string) => ({ a: path.join(dir, 'a'), b: path.join(dir, 'b') });

function buildOne(outDir: string, shopPhone: string, apiUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npx',
      ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      {
        cwd: path.join(WORKSPACE_ROOT, 'storefront'),
        env: { ...process.env, VITE_API_URL: apiUrl, VITE_SHOP_PHONE: shopPhone },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`vite build of the release ${shopPhone} failed (${code}):\n${stderr}`)),
    );
  });
}

/** Builds both releases into `dir` (one after the other: two cores are shared by everything). */
export async function buildReleases(dir: string, apiUrl: string): Promise<string> {
  const { a, b } = releaseDirs(dir);
  await buildOne(a, PHONE_A, apiUrl);
  await buildOne(b, PHONE_B, apiUrl);
  return dir;
}
