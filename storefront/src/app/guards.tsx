import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../config/paths';
import { external } from '../lib/external';
import { backofficeHome } from '../lib/roles';
import { useSessionStore } from '../stores/session-store';

/** Any signed-in user: needs a token or refresh token, else login. */
export function RequireAuth({
  children,
  customerOnly = false,
}: {
  children?: ReactNode;
  customerOnly?: boolean;
}) {
  const user = useSessionStore((s) => s.user);
  const hasToken = useSessionStore((s) => Boolean(s.token || s.refreshToken));
  if (!user || !hasToken) return <Navigate to={paths.login} replace />;
  if (customerOnly && user.role !== 'customer') return <Navigate to={paths.home} replace />;
  return <>{children ?? <Outlet />}</>;
}

/** Leaves the storefront for an absolute URL (the back office). */
export function ExternalRedirect({ to }: { to: string }) {
  useEffect(() => {
    external.go(to);
  }, [to]);
  return null;
}

/**
 * /dashboard: admins and staff go on to their back-office landing page; a customer's landing page
 * is the shop itself, so a customer stays on (or goes back to) the home page.
 */
export function DashboardRoute() {
  const user = useSessionStore((s) => s.user);
  if (!user) return <Navigate to={paths.login} replace />;
  const backoffice = backofficeHome(user.role);
  if (backoffice) return <ExternalRedirect to={backoffice} />;
  return <Navigate to={paths.home} replace />;
}
