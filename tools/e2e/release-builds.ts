/**
 * The two storefront builds the release journey deploys one after the other: real `vite build`s
 * that differ only in a build-time address (the back office's), so their entry scripts differ. The journeys runner makes them in the background
 * while the API is seeded and started (RELEASE_BUILDS_DIR); run alone, the journey makes them itself.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../paths';

const BACKOFFICE_A = 'http://release-a.backoffice.invalid';
const BACKOFFICE_B = 'http://release-b.backoffice.invalid';

/** `<dir>/a` and `<dir>/b`: the first and the second release. */
export const releaseDirs = (dir: string) => ({ a: path.join(dir, 'a'), b: path.join(dir, 'b') });

function buildOne(outDir: string, backofficeUrl: string, apiUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npx',
      ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      {
        cwd: path.join(WORKSPACE_ROOT, 'storefront'),
        env: { ...process.env, VITE_API_URL: apiUrl, VITE_BACKOFFICE_URL: backofficeUrl },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `vite build of the release for ${backofficeUrl} failed (${code}):\n${stderr}`,
            ),
          ),
    );
  });
}

/** Builds both releases into `dir` (one after the other: two cores are shared by everything). */
export async function buildReleases(dir: string, apiUrl: string): Promise<string> {
  const { a, b } = releaseDirs(dir);
  await buildOne(a, BACKOFFICE_A, apiUrl);
  await buildOne(b, BACKOFFICE_B, apiUrl);
  return dir;
}
