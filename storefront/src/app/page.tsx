import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';
import type { Params } from 'react-router';

/**
 * What a route's element may declare so that its screen can start loading before the app first
 * renders (preloadScreen, main.tsx): its code, which the first render waits for, and its first
 * data, started beside it and never waited for (the screen shows its own loading state).
 */
export interface Preloadable {
  load?: () => Promise<unknown>;
  prefetch?: (client: QueryClient, params: Params, search: URLSearchParams) => void;
  /**
   * What the screen shows first while its code loads, drawn from the app's own script: its heading
   * at its place. The first render then does not wait for the screen's code; the heading is the
   * screen's largest paint (LCP) and comes with the app's script instead of after the screen's.
   */
  shell?: () => ReactElement;
}

/**
 * A screen of its own chunk (a named export of `load`'s module). Once its code is in (preloaded,
 * or seen before) it renders at once, without the Suspense fallback that React.lazy shows for a
 * moment even for a module already loaded (and that React keeps up at least 300 ms).
 */
export function page<M>(
  load: () => Promise<M>,
  name: keyof M,
  prefetch?: Preloadable['prefetch'],
  shell?: Preloadable['shell'],
) {
  let ready: ComponentType | undefined;
  const code = () => load().then((m) => (ready = m[name] as ComponentType));
  const Lazy = lazy(() => code().then((screen) => ({ default: screen })));
  function Page() {
    const [Ready] = useState(() => ready);
    if (Ready) return <Ready />;
    return shell ? (
      <Suspense fallback={shell()}>
        <Lazy />
      </Suspense>
    ) : (
      <Lazy />
    );
  }
  return Object.assign(Page, { load: code, prefetch, shell });
}
