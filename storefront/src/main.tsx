import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/provider';
import { preloadScreen } from './app/router';
import './styles.css';

/** Longest the first render waits for the screen's code; the "Loading" state shows after that. */
const SCREEN_WAIT_MS = 3000;

const client = createQueryClient();
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );
// index.html's drawn top bar stays until the screen's code is in; a screen that fails to load is
// left to the app's error state.
void Promise.race([
  preloadScreen(client, window.location),
  new Promise((resolve) => setTimeout(resolve, SCREEN_WAIT_MS)),
]).then(render, render);

// The offline worker installs after the page has loaded and the main thread is idle: its precache
// downloads never compete with the first paint.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' });
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 3000 });
    else setTimeout(register, 1000);
  });
}
