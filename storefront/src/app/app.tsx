import { ApiStatus } from '../features/status/api-status';

/** Placeholder of the public shop until the storefront issue fills it. */
export function App() {
  return (
    <main className="placeholder">
      <p className="brand">Seedling Propagation Centre · Kiambu</p>
      <h1>Premium Quality Seedlings</h1>
      <p>Beautiful seedlings to bring life to your space</p>
      <p>Our online shop is opening soon.</p>
      <ApiStatus />
    </main>
  );
}
