/** Build-time settings (Vite's import.meta.env), read in one place. */
export const env = {
  /** Origin of the API; empty means the page's own origin (the API then sits behind the same host). */
  apiUrl: (import.meta.env.VITE_API_URL as string | undefined) ?? 'http://localhost:3000',
  /** Origin of the customer shop (Place Order, Shop links). */
  storefrontUrl:
    (import.meta.env.VITE_STOREFRONT_URL as string | undefined) ?? 'http://localhost:5173',
};
