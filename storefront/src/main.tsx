import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The offline worker installs after the page has loaded and the main thread is idle: its precache
// downloads never compete with the first paint.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' });
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 3000 });
    else setTimeout(register, 1000);
  });
}
