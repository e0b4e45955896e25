import '@testing-library/jest-dom';
// The till keeps its offline queue in IndexedDB (issue 47), which jsdom lacks.
import 'fake-indexeddb/auto';
import { notifications } from '@mantine/notifications';
import { act } from '@testing-library/react';

// jsdom lacks the layout APIs Mantine reads; these follow Mantine's own testing guide.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};

// Toasts live in one store for the whole file; Mantine shows 5 and queues the rest, so a test's
// toast would wait behind the ones earlier tests left.
afterEach(() => act(() => notifications.clean()));
