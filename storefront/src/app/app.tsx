import type { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { Loading } from '../components/states';
import { AppProvider } from './provider';
import { RouteErrorBoundary } from './route-error';
import { AppRoutes } from './router';

/** A failed screen is forgotten once the visitor goes elsewhere. */
function Screens() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<Loading />}>
        <AppRoutes />
      </Suspense>
    </RouteErrorBoundary>
  );
}

/** The whole shop; `client` may already hold the first screen's data (main.tsx). */
export function App({ client }: { client: QueryClient }) {
  return (
    <AppProvider client={client}>
      <BrowserRouter>
        <Screens />
      </BrowserRouter>
    </AppProvider>
  );
}
