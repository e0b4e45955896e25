/**
 * Sizes of a built storefront, as a phone on mobile data downloads them: each file gzip-compressed
 * (level 9, what the reverse proxy serves). Used by the budget test and by `npm run lighthouse`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface BundleSizes {
  /** index.html plus every script, module preload and stylesheet it loads (gzip bytes). */
  firstLoad: number;
  firstLoadFiles: { file: string; gzip: number }[];
  /** Per screen: what opening it adds to the first load (its chunk and what only it imports). */
  routes: Record<string, { gzip: number; files: string[] }>;
}

const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** `dist` must hold a build made with `--manifest` (Vite writes `.vite/manifest.json`). */
export function measureBundle(dist: string): BundleSizes {
  const manifest = JSON.parse(
    readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');

  // What index.html itself loads: scripts, module preloads and stylesheets, as it names them.
  const loaded = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/([^"]+\.(?:js|css))"/g))
    loaded.add(m[1]!);
  // Static imports of the entry load with it even when not preloaded.
  const closure = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const c of chunk.css ?? []) into.add(c);
    for (const i of chunk.imports ?? []) closure(i, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, loaded);

  const firstLoadFiles = [
    { file: 'index.html', gzip: gzip(path.join(dist, 'index.html')) },
    ...[...loaded].sort().map((file) => ({ file, gzip: gzip(path.join(dist, file)) })),
  ];
  const firstLoad = firstLoadFiles.reduce((sum, f) => sum + f.gzip, 0);

  const routes: BundleSizes['routes'] = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    // A screen whose chunk another lazy chunk also imports (the organisation's area: its deliveries)
    // is listed by Vite under its chunk's name, without its source.
    const m =
      chunk.src?.match(/\/routes\/([^/]+)\.tsx$/) ??
      key.match(/\/routes\/([^/]+)\.tsx$/) ??
      (!chunk.src && chunk.name ? [key, chunk.name] : null);
    if (!m || !chunk.isDynamicEntry) continue;
    const own = new Set<string>();
    closure(key, own);
    const files = [...own].filter((f) => !loaded.has(f)).sort();
    routes[m[1]!] = { files, gzip: files.reduce((s, f) => s + gzip(path.join(dist, f)), 0) };
  }
  return { firstLoad, firstLoadFiles, routes };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
