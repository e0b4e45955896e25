import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { Providers } from './app/providers';
import { forgetClerkOnSignOut } from './features/till/offline/offline-sync';

// Sign-out forgets the clerk the till kept for offline use (issue 47).
forgetClerkOnSignOut();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <App />
    </Providers>
  </StrictMode>,
);

// The till's offline worker (issue 47): registered once the page has loaded, so its precache never
// competes with the first paint. It answers only /till and its offline receipts without network.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/sw.js', { scope: '/' });
  });
}
