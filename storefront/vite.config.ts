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

/** Headers `vite preview` adds, given as JSON by the browser journeys (the nginx image's own). */
function previewHeaders(): Record<string, string> | undefined {
  const given = process.env.SPC_PREVIEW_HEADERS;
  return given ? (JSON.parse(given) as Record<string, string>) : undefined;
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    VitePWA({
      // main.tsx registers the worker once the page has loaded and the phone is idle: no script of
      // its own on the first load, and its precache downloads never compete with the first paint.
      injectRegister: false,
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
            // The catalogue the shopper has seen (public product and category reads, the shop's
            // contacts and privacy notice, the booking settings: deposit share and seasons): fresh when
            // the network answers within 4 s, the last copy otherwise (offline browsing). These
            // functions are copied into the worker as source: they may not use outside names.
            // A request signed in (Authorization) is never kept: no signed-in answer outlives its
            // session on a shared phone.
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              !request.headers.has('Authorization') &&
              /^\/api\/(products|categories|site\/contacts|privacy\/notice|bookings\/settings)(\/|$)/.test(
                url.pathname,
              ),
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
              plugins: [
                {
                  // Offline, a picture never fetched at this width (the cart line's 64 px one of a
                  // card seen at 195 px) is answered with a width of it kept before
                  // (`<hash>-<width>.webp`).
                  handlerDidError: async ({ request }) => {
                    const cache = await caches.open('pictures');
                    const stem = request.url.replace(/-\d+\.webp$/, '-');
                    if (stem === request.url) return undefined;
                    for (const key of await cache.keys())
                      if (key.url.startsWith(stem)) return cache.match(key);
                    return undefined;
                  },
                },
              ],
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
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProd }] : []),
    ],
  },
  server: { port: 5173, strictPort: true },
  // The browser journeys serve the build with the production security headers (tools/e2e).
  preview: { port: 5173, strictPort: true, headers: previewHeaders() },
  build: {
    target: 'es2022',
    // Every browser of the es2022 target but Safari < 17 preloads modules itself; the polyfill is
    // first-load weight for a hint only.
    modulePreload: { polyfill: false },
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
