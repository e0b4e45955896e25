import { ROLES, type Role } from '@spc/shared-contracts';

/**
 * What the audit screen is filtered on, as kept in its address so a filtered trail can be shared
 * and survives a reload: `?user=…&role=staff&action=category.create&from=2026-11-01&to=2026-11-30`.
 * Customers' sign-ins are hidden unless the address says `signIns=all`: the owner reads the trail
 * for what staff did, and customers' sign-ins would bury it.
 */
export interface AuditFilters {
  user?: string;
  role?: Role;
  action?: string;
  /** YYYY-MM-DD, the shop's day, included. */
  from?: string;
  /** YYYY-MM-DD, the shop's day, included. */
  to?: string;
  hideCustomerSignIns: boolean;
}

export const NO_FILTERS: AuditFilters = { hideCustomerSignIns: true };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isRole(value: string | null): value is Role {
  return value !== null && (ROLES as readonly string[]).includes(value);
}

/** The filters and page an address holds; anything malformed is left out. */
export function readAuditSearch(params: URLSearchParams): { filters: AuditFilters; page: number } {
  const day = (key: string) => {
    const value = params.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  const role = params.get('role');
  const page = Number(params.get('page'));
  return {
    filters: {
      user: params.get('user') || undefined,
      role: isRole(role) ? role : undefined,
      action: params.get('action') || undefined,
      from: day('from'),
      to: day('to'),
      hideCustomerSignIns: params.get('signIns') !== 'all',
    },
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address of filters and a page; defaults are left out, so the plain screen has none. */
export function writeAuditSearch(filters: AuditFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.user) params.set('user', filters.user);
  if (filters.role) params.set('role', filters.role);
  if (filters.action) params.set('action', filters.action);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (!filters.hideCustomerSignIns) params.set('signIns', 'all');
  if (page > 1) params.set('page', String(page));
  return params;
}

/** The API's query parameters for the filters (the same for the list and the CSV export). */
export function auditApiQuery(filters: AuditFilters) {
  return {
    ...(filters.user ? { user: filters.user } : {}),
    ...(filters.role ? { role: filters.role } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(filters.hideCustomerSignIns ? { hideCustomerSignIns: 'true' as const } : {}),
  };
}

/** True when any filter narrows the trail beyond the default. */
export function isFiltered(filters: AuditFilters): boolean {
  return writeAuditSearch(filters).toString() !== '';
}
