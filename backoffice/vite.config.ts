import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const sharedContracts = fileURLToPath(new URL('../shared-contracts/src', import.meta.url));

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
  preview: { port: 5174, strictPort: true },
  build: { target: 'es2022', sourcemap: true },
});
