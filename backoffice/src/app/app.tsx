import { Suspense } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RouteErrorBoundary } from './route-error';
import { AppRoutes } from './router';

/** A failed screen is forgotten once the user goes elsewhere. */
function Screens() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<PageLoader />}>
        <AppRoutes />
      </Suspense>
    </RouteErrorBoundary>
  );
}

/** The back office's routes, declared as the storefront declares its own. */
export function App() {
  return (
    <BrowserRouter>
      <Screens />
    </BrowserRouter>
  );
}
