import { existsSync } from 'node:fs';
import path from 'node:path';

/** The workspace root: the nearest folder above this file that holds nx.json. */
export const WORKSPACE_ROOT = (() => {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'nx.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('nx.json not found above tools/');
    dir = parent;
  }
  return dir;
})();

/** Local state (database files, outbox, uploads, built tools) lives here, never committed. */
export const DATA_DIR = path.join(WORKSPACE_ROOT, '.data');
