import type { QueryClient } from '@tanstack/react-query';
import { lazy, useState, type ComponentType } from 'react';
import type { Params } from 'react-router';

/**
 * What a route's element may declare so that its screen can start loading before the app first
 * renders (preloadScreen, main.tsx): its code, which the first render waits for, and its first
 * data, started beside it and never waited for (the screen shows its own loading state).
 */
export interface Preloadable {
  load?: () => Promise<unknown>;
  prefetch?: (client: QueryClient, params: Params, search: URLSearchParams) => void;
}

/**
 * A screen of its own chunk (a named export of `load`'s module). Once its code is in (preloaded,
 * or seen before) it renders at once, without the Suspense fallback that React.lazy shows for a
 * moment even for a module already loaded (and that React keeps up at least 300 ms).
 */
export function page<M>(load: () => Promise<M>, name: keyof M, prefetch?: Preloadable['prefetch']) {
  let ready: ComponentType | undefined;
  const code = () => load().then((m) => (ready = m[name] as ComponentType));
  const Lazy = lazy(() => code().then((screen) => ({ default: screen })));
  function Page() {
    const [Ready] = useState(() => ready);
    return Ready ? <Ready /> : <Lazy />;
  }
  return Object.assign(Page, { load: code, prefetch });
}
