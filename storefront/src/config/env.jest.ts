/** The test twin of env.ts: Jest runs CommonJS, where import.meta does not exist. */
export const env = {
  apiUrl: process.env.VITE_API_URL ?? 'http://localhost:3000',
  backofficeUrl: 'http://localhost:5174',
};
