import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const sharedContracts = fileURLToPath(new URL('../shared-contracts/src', import.meta.url));

/** Headers `vite preview` adds, given as JSON by the browser journeys (the nginx image's own). */
function previewHeaders(): Record<string, string> | undefined {
  const given = process.env.SPC_PREVIEW_HEADERS;
  return given ? (JSON.parse(given) as Record<string, string>) : undefined;
}

export default defineConfig({
  plugins: [react()],
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
