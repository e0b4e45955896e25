/** The test twin of env.ts: Jest runs CommonJS, where import.meta does not exist. */
export const env = {
  apiUrl: process.env.VITE_API_URL ?? 'http://localhost:3000',
  backofficeUrl: 'http://localhost:5174',
  shopPhone: '+254 700 000 000',
  shopWhatsapp: '+254 700 000 000',
  shopEmail: 'info@seedlingcentre.co.ke',
};
