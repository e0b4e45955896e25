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

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <Screens />
      </BrowserRouter>
    </AppProvider>
  );
}
