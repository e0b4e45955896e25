/** Build-time settings (Vite's import.meta.env), read in one place. */
const read = (value: unknown, fallback: string) =>
  typeof value === 'string' && value !== '' ? value : fallback;

export const env = {
  /** Origin of the API; empty means the page's own origin (the API then sits behind the same host). */
  apiUrl: (import.meta.env.VITE_API_URL as string | undefined) ?? 'http://localhost:3000',
  backofficeUrl: read(import.meta.env.VITE_BACKOFFICE_URL, 'http://localhost:5174'),
};
