import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const sharedContracts = fileURLToPath(new URL('../shared-contracts/src', import.meta.url));
const require = createRequire(import.meta.url);
// react-router's package exports only its development build; production bundles take the
// production one (no dev warnings, about 10 KB gzip less on the first load).
const reactRouterProd = join(
  dirname(require.resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

// The shipped bundle runs on Preact's React-compatible layer: about 4 KB gzip where react-dom is
// 65 KB, which is what keeps the first load under 100 KB on mobile data. Dev server and unit tests
// keep React; the browser journeys run against the built bundle.
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
];

/** Headers `vite preview` adds, given as JSON by the browser journeys (the nginx image's own). */
function previewHeaders(): Record<string, string> | undefined {
  const given = process.env.SPC_PREVIEW_HEADERS;
  return given ? (JSON.parse(given) as Record<string, string>) : undefined;
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    VitePWA({
      // A plain <script defer> registers the worker: nothing on the first load's critical path.
      injectRegister: 'script-defer',
      registerType: 'autoUpdate',
      includeAssets: ['favicon.svg', 'robots.txt'],
      manifest: {
        name: 'Seedling Propagation Centre',
        short_name: 'SPC Seedlings',
        description:
          'Quality fruit, vegetable, herb, flower and forestry seedlings from Kiambu, Kenya.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#2f6b2f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // Hashed scripts, styles and pictures are kept at install; index.html is not served from
        // the precache while online (below), so a release is never hidden behind an old page.
        globPatterns: ['**/*.{js,css,html,svg,webp,png,woff2}'],
        globIgnores: ['**/*.map'],
        navigateFallback: null,
        // index.html is kept only as the offline answer below, never served for "/" from the
        // precache (that would be the stale page after a release).
        directoryIndex: '',
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [
          {
            // Pages: the network first, so a release shows at once; the last copy when offline.
            urlPattern: ({ request }) => request.mode === 'navigate',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'pages',
              networkTimeoutSeconds: 4,
              expiration: { maxEntries: 20 },
              plugins: [
                {
                  // Every route is the same single-page shell: one cached copy answers them all.
                  cacheKeyWillBeUsed: async () => '/index.html',
                  // Offline before any page went through the worker: the shell kept at install.
                  handlerDidError: async () =>
                    (await caches.match('/index.html', { ignoreSearch: true })) ?? Response.error(),
                },
              ],
            },
          },
          {
            // The catalogue the shopper has seen (public product and category reads): fresh when
            // the network answers within 4 s, the last copy otherwise (offline browsing). These
            // functions are copied into the worker as source: they may not use outside names.
            urlPattern: ({ url, request }) =>
              request.method === 'GET' && /^\/api\/(products|categories)(\/|$)/.test(url.pathname),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'catalogue',
              networkTimeoutSeconds: 4,
              expiration: { maxEntries: 80, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Product pictures and the shop's uploaded photos never change under one address. A
            // profile picture is not kept: it would outlive its owner's session on a shared phone.
            urlPattern: ({ url }) =>
              url.pathname.startsWith('/api/uploads/') &&
              !url.pathname.startsWith('/api/uploads/profiles/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'pictures',
              expiration: { maxEntries: 150, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
  resolve: {
    alias: [
      { find: '@spc/shared-contracts/client', replacement: `${sharedContracts}/client.ts` },
      { find: '@spc/shared-contracts/locations', replacement: `${sharedContracts}/locations.ts` },
      {
        find: '@spc/shared-contracts/web-client',
        replacement: `${sharedContracts}/web-client.ts`,
      },
      { find: /^@spc\/shared-contracts$/, replacement: `${sharedContracts}/index.ts` },
      ...(command === 'build'
        ? [{ find: /^react-router$/, replacement: reactRouterProd }, ...preactCompat]
        : []),
    ],
  },
  server: { port: 5173, strictPort: true },
  // The browser journeys serve the build with the production security headers (tools/e2e).
  preview: { port: 5173, strictPort: true, headers: previewHeaders() },
  build: {
    target: 'es2022',
    sourcemap: true,
    rollupOptions: {
      // shared-contracts' modules only declare things; marking them side-effect free lets the entry
      // take the constants it uses without the zod schemas the index also re-exports. zod.ts is the
      // one exception: it sets zod up (no compiled parsers) before any schema is made.
      treeshake: {
        moduleSideEffects: (id) =>
          !id.includes('/shared-contracts/src/') || id.endsWith('/shared-contracts/src/zod.ts'),
      },
    },
  },
}));
