import type { Role } from '@spc/shared-contracts';
import { paths, storefrontPaths } from '../config/paths';

export interface SidebarLink {
  label: string;
  to: string;
  /** Links to the storefront leave the console. */
  external?: boolean;
  /** The heading it is listed under. */
  group?: SidebarGroup;
}

/** The headings the sidebar groups its links under, in this order. */
export const SIDEBAR_GROUPS = [
  'Sales',
  'Catalogue',
  'Customers and organisations',
  'Shop settings',
] as const;
export type SidebarGroup = (typeof SIDEBAR_GROUPS)[number];

const CUSTOMERS: SidebarGroup = 'Customers and organisations';

/** The sidebar's links per role, each under its heading (none: above or below the groups). */
export function sidebarLinks(role: Role | undefined): SidebarLink[] {
  if (role === 'admin') {
    return [
      { label: 'Dashboard', to: paths.adminDashboard },
      { label: 'Orders', to: paths.adminOrders, group: 'Sales' },
      { label: 'Till', to: paths.till, group: 'Sales' },
      { label: 'Till sessions', to: paths.tillSessions, group: 'Sales' },
      { label: 'Payments to match', to: paths.managePayments, group: 'Sales' },
      { label: 'Invoices', to: paths.invoices, group: 'Sales' },
      { label: 'eTIMS', to: paths.etims, group: 'Sales' },
      { label: 'Bookings', to: paths.manageBookings, group: 'Sales' },
      { label: 'Reports', to: paths.adminReports, group: 'Sales' },
      { label: 'eTIMS summary', to: paths.etimsSummary, group: 'Sales' },
      { label: 'Categories', to: paths.manageCategories, group: 'Catalogue' },
      { label: 'Products', to: paths.manageProducts, group: 'Catalogue' },
      { label: 'Batches', to: paths.manageBatches, group: 'Catalogue' },
      { label: 'Organisations', to: paths.manageOrganisations, group: CUSTOMERS },
      { label: 'Quotations', to: paths.manageQuotations, group: CUSTOMERS },
      { label: 'Messages', to: paths.manageMessages, group: CUSTOMERS },
      { label: 'Data requests', to: paths.adminDataRequests, group: CUSTOMERS },
      { label: 'Staff', to: paths.adminStaff, group: 'Shop settings' },
      { label: 'Shop pictures', to: paths.adminSitePictures, group: 'Shop settings' },
      { label: 'Delivery zones', to: paths.adminDeliveryZones, group: 'Shop settings' },
      { label: 'Privacy', to: paths.adminPrivacy, group: 'Shop settings' },
      { label: 'Audit trails', to: paths.adminAuditTrails, group: 'Shop settings' },
    ];
  }
  if (role === 'staff') {
    return [
      { label: 'Orders', to: paths.staffOrders, group: 'Sales' },
      { label: 'Till', to: paths.till, group: 'Sales' },
      { label: 'Payments to match', to: paths.managePayments, group: 'Sales' },
      { label: 'Invoices', to: paths.invoices, group: 'Sales' },
      { label: 'eTIMS', to: paths.etims, group: 'Sales' },
      { label: 'Bookings', to: paths.manageBookings, group: 'Sales' },
      { label: 'Categories', to: paths.manageCategories, group: 'Catalogue' },
      { label: 'Products', to: paths.manageProducts, group: 'Catalogue' },
      { label: 'Batches', to: paths.manageBatches, group: 'Catalogue' },
      { label: 'Organisations', to: paths.manageOrganisations, group: CUSTOMERS },
      { label: 'Quotations', to: paths.manageQuotations, group: CUSTOMERS },
      { label: 'Messages', to: paths.manageMessages, group: CUSTOMERS },
      { label: 'Shop', to: storefrontPaths.shop, external: true },
    ];
  }
  return [
    { label: 'Shop', to: storefrontPaths.shop, external: true },
    { label: 'My Orders', to: storefrontPaths.myOrders, external: true },
  ];
}

/** The links in runs: a run without a heading, or the links of one heading. */
export function groupedLinks(
  links: SidebarLink[],
): { group?: SidebarGroup; links: SidebarLink[] }[] {
  const runs: { group?: SidebarGroup; links: SidebarLink[] }[] = [];
  for (const link of links) {
    const last = runs[runs.length - 1];
    if (last && last.group === link.group) last.links.push(link);
    else runs.push({ group: link.group, links: [link] });
  }
  return runs;
}

/** Pages without a link of their own, and the link of the section they belong to. */
const SECTION_OF: { prefix: string; section: string }[] = [
  { prefix: paths.createStaff, section: paths.adminStaff },
  { prefix: '/edit-staff', section: paths.adminStaff },
  { prefix: '/colleagues', section: paths.adminStaff },
  { prefix: '/edit-user', section: paths.adminDashboard },
];

const within = (pathname: string, prefix: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * The link of the section the page at `pathname` is in: the link to it or to a page above it (the
 * longest such link), else the section a page without a link of its own belongs to. External
 * links are never current.
 */
export function currentLink(links: SidebarLink[], pathname: string): SidebarLink | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const inside = links
    .filter((link) => !link.external && within(path, link.to))
    .sort((a, b) => b.to.length - a.to.length);
  if (inside[0]) return inside[0];
  const section = SECTION_OF.find((s) => within(path, s.prefix))?.section;
  return links.find((link) => !link.external && link.to === section);
}
