import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const sharedContracts = fileURLToPath(new URL('../shared-contracts/src', import.meta.url));

/** Headers `vite preview` adds, given as JSON by the browser journeys (the nginx image's own). */
function previewHeaders(): Record<string, string> | undefined {
  const given = process.env.SPC_PREVIEW_HEADERS;
  return given ? (JSON.parse(given) as Record<string, string>) : undefined;
}

export default defineConfig({
  plugins: [
    react(),
    // The till's offline worker (issue 47, docs/till-offline.md). Only /till and its offline
    // receipts are answered offline; every other page of the back office goes to the network, and
    // no API answer is kept by the worker (the API is another origin: the worker never sees it).
    VitePWA({
      // main.tsx registers it after the page has loaded: no inline script (the CSP forbids one).
      injectRegister: false,
      registerType: 'autoUpdate',
      manifest: false,
      workbox: {
        // The shell and every hashed chunk (the till's lazy screens among them): a reload offline
        // needs the till's chunks and the ones they share with the rest of the app.
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        globIgnores: ['**/*.map'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        // No page is answered from the precache by itself: only the till's, below.
        navigateFallback: null,
        directoryIndex: '',
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [
          {
            // The till's pages: the network first (a release shows at once), the shell kept at
            // install when the network fails. These functions are copied into the worker as
            // source: they may not use outside names.
            urlPattern: ({ request, url }) =>
              request.mode === 'navigate' &&
              /^\/till(\/offline-receipt\/[^/]+)?\/?$/.test(url.pathname),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'till-pages',
              networkTimeoutSeconds: 4,
              expiration: { maxEntries: 2 },
              plugins: [
                {
                  // Every till page is the same single-page shell: one copy answers them all.
                  cacheKeyWillBeUsed: async () => '/index.html',
                  handlerDidError: async () =>
                    (await caches.match('/index.html', { ignoreSearch: true })) ?? Response.error(),
                },
              ],
            },
          },
        ],
      },
    }),
  ],
  resolve: {
    alias: {
      '@spc/shared-contracts/client': `${sharedContracts}/client.ts`,
      '@spc/shared-contracts/locations': `${sharedContracts}/locations.ts`,
      '@spc/shared-contracts/web-client': `${sharedContracts}/web-client.ts`,
      '@spc/shared-contracts': `${sharedContracts}/index.ts`,
    },
  },
  server: { port: 5174, strictPort: true },
  // The browser journeys serve the build with the production security headers (tools/e2e).
  preview: { port: 5174, strictPort: true, headers: previewHeaders() },
  build: { target: 'es2022', sourcemap: true },
});
