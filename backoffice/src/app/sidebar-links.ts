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
      { label: 'Reports', to: paths.adminReports },
      { label: 'Categories', to: paths.manageCategories },
      { label: 'Products', to: paths.manageProducts },
      { label: 'Audit trails', to: paths.adminAuditTrails },
      { label: 'Shop pictures', to: paths.adminSitePictures },
      { label: 'Delivery zones', to: paths.adminDeliveryZones },
    ];
  }
  if (role === 'staff') {
    return [
      { label: 'Orders', to: paths.staffOrders },
      { label: 'Categories', to: paths.manageCategories },
      { label: 'Products', to: paths.manageProducts },
      { label: 'Shop', to: storefrontPaths.shop, external: true },
    ];
  }
  return [
    { label: 'Shop', to: storefrontPaths.shop, external: true },
    { label: 'My Orders', to: storefrontPaths.myOrders, external: true },
  ];
}
