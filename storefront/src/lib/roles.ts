import { env } from '../config/env';

/** Where a signed-in admin or staff member belongs: the back office (also where an unknown path sends them). */
export function backofficeHome(role: string): string | null {
  const base = env.backofficeUrl.replace(/\/$/, '');
  if (role === 'admin') return `${base}/admin/dashboard`;
  if (role === 'staff') return `${base}/staff/orders`;
  return null;
}
