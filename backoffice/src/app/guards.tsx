import type { Role } from '@spc/shared-contracts';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { landingFor, paths } from '../config/paths';
import { useIsSignedIn, useSessionRole } from '../lib/session-store';

/** Any signed-in user passes; others go to login, which brings them back here afterwards. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const signedIn = useIsSignedIn();
  const location = useLocation();
  if (!signedIn) {
    return (
      <Navigate
        to={paths.login}
        replace
        state={{ from: `${location.pathname}${location.search}` }}
      />
    );
  }
  return children ?? <Outlet />;
}

/**
 * Role guard with its redirects: admin-only screens send others to `/`, staff-only
 * screens to `/staff`, customer-only screens to `/customer`.
 */
export function RequireRole({
  roles,
  redirectTo,
  children,
}: {
  roles: readonly Role[];
  redirectTo: string;
  children?: ReactNode;
}) {
  const role = useSessionRole();
  if (!role || !roles.includes(role)) return <Navigate to={redirectTo} replace />;
  return children ?? <Outlet />;
}

export const AdminOnly = () => <RequireRole roles={['admin']} redirectTo="/" />;
export const StaffOnly = () => <RequireRole roles={['staff']} redirectTo={paths.staffArea} />;
export const AdminOrStaff = () => <RequireRole roles={['admin', 'staff']} redirectTo="/" />;

/** `/` and `/dashboard`: a signed-in user goes to their landing page, anyone else to login. */
export function HomeRedirect() {
  const signedIn = useIsSignedIn();
  const role = useSessionRole();
  return <Navigate to={signedIn ? landingFor(role) : paths.login} replace />;
}
