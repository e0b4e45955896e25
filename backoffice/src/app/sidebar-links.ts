import type { Role } from '@spc/shared-contracts';
import { paths, storefrontPaths } from '../config/paths';

export interface SidebarLink {
  label: string;
  to: string;
  /** Links to the storefront leave the console. */
  external?: boolean;
}

/** The sidebar's links per role. */
export function sidebarLinks(role: Role | undefined): SidebarLink[] {
  if (role === 'admin') {
    return [
      { label: 'Dashboard', to: paths.adminDashboard },
      { label: 'Staff', to: paths.adminStaff },
      { label: 'Orders', to: paths.adminOrders },
      { label: 'Payments to match', to: paths.managePayments },
      { label: 'Bookings', to: paths.manageBookings },
      { label: 'Reports', to: paths.adminReports },
      { label: 'Categories', to: paths.manageCategories },
      { label: 'Products', to: paths.manageProducts },
      { label: 'Batches', to: paths.manageBatches },
      { label: 'Audit trails', to: paths.adminAuditTrails },
      { label: 'Shop pictures', to: paths.adminSitePictures },
      { label: 'Messages', to: paths.manageMessages },
      { label: 'Delivery zones', to: paths.adminDeliveryZones },
      { label: 'Data requests', to: paths.adminDataRequests },
      { label: 'Privacy', to: paths.adminPrivacy },
    ];
  }
  if (role === 'staff') {
    return [
      { label: 'Orders', to: paths.staffOrders },
      { label: 'Payments to match', to: paths.managePayments },
      { label: 'Bookings', to: paths.manageBookings },
      { label: 'Categories', to: paths.manageCategories },
      { label: 'Products', to: paths.manageProducts },
      { label: 'Batches', to: paths.manageBatches },
      { label: 'Messages', to: paths.manageMessages },
      { label: 'Shop', to: storefrontPaths.shop, external: true },
    ];
  }
  return [
    { label: 'Shop', to: storefrontPaths.shop, external: true },
    { label: 'My Orders', to: storefrontPaths.myOrders, external: true },
  ];
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
