import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { Link, Navigate } from 'react-router';
import { ExternalRedirect } from '../../../app/guards';
import { paths } from '../../../config/paths';
import { backofficeHome } from '../../../lib/roles';
import { useSessionUser } from '../../../stores/session-store';

/** Any unknown path; a signed-in visitor is sent where their role belongs. */
export function NotFoundRoute() {
  const user = useSessionUser();
  if (user) {
    const external = backofficeHome(user.role);
    if (external) return <ExternalRedirect to={external} />;
    return <Navigate to={user.role === 'customer' ? paths.profile : paths.home} replace />;
  }
  return (
    <div className="page center">
      <h1>{STOREFRONT_MESSAGES.notFound}</h1>
      <Link to={paths.home} className="btn">
        back home
      </Link>
    </div>
  );
}
