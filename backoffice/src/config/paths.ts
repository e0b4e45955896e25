import type { Role } from '@spc/shared-contracts';
import { env } from '../config/env';

/** Every route of the back office, in one place. */
export const paths = {
  login: '/authenticate/login',
  forgotPassword: '/authenticate/forgotPassword',
  resetPassword: (code: string) => `/authenticate/resetPassword/${code}`,
  adminDashboard: '/admin/dashboard',
  adminStaff: '/admin/staff',
  createStaff: '/create-staff',
  editStaff: (id: string) => `/edit-staff/${id}`,
  editUser: (id: string) => `/edit-user/${id}`,
  adminOrders: '/admin/orders',
  adminReports: '/admin/reports',
  adminAuditTrails: '/admin/audit-trails',
  adminSitePictures: '/admin/site-pictures',
  adminDeliveryZones: '/admin/delivery-zones',
  adminDataRequests: '/admin/data-requests',
  adminPrivacy: '/admin/privacy',
  manageProducts: '/manage/products',
  productStock: (id: string) => `/manage/products/${id}/stock`,
  manageCategories: '/manage/categories',
  /** Batches by ready date (staff and admins); `?productId=` shows one product's. */
  manageBatches: '/manage/batches',
  productBatches: (productId: string) => `/manage/batches?productId=${productId}`,
  batch: (id: string) => `/manage/batches/${id}`,
  /** The bookings queue (staff and admins). */
  manageBookings: '/manage/bookings',
  manageMessages: '/manage/messages',
  /** Paybill payments no order took (admins and staff). */
  managePayments: '/manage/payments',
  /** Business accounts (staff and admins); `?status=pending`: those waiting for approval. */
  manageOrganisations: '/manage/organisations',
  organisationsWaiting: '/manage/organisations?status=pending',
  organisation: (id: string) => `/manage/organisations/${id}`,
  /** The quote desk (staff and admins); `?status=requested`: those awaiting the shop. */
  manageQuotations: '/manage/quotations',
  quotationsAwaiting: '/manage/quotations?status=requested',
  quotation: (id: string) => `/manage/quotations/${id}`,
  /** Invoices on account (staff and admins); `?filter=overdue`, `?organisationId=` narrow it. */
  invoices: '/invoices',
  invoicesOverdue: '/invoices?filter=overdue',
  organisationInvoices: (organisationId: string) => `/invoices?organisationId=${organisationId}`,
  invoice: (id: string) => `/invoices/${id}`,
  /** The eTIMS queue (staff and admins); `?state=` narrows it. */
  etims: '/manage/etims',
  /** The daily eTIMS summary and its CSV. */
  etimsSummary: '/manage/etims/summary',
  /** The gate's till (staff and admins): selling, the session's sales, the clerk's PIN. */
  till: '/till',
  /** A gate sale's receipt, to print on a 58 or 80 mm roll. */
  tillReceipt: (orderId: string) => `/till/receipt/${orderId}`,
  /** A sale made offline, by its Idempotency-Key, until it is sent (issue 47). */
  tillOfflineReceipt: (key: string) => `/till/offline-receipt/${key}`,
  /** Every till session of a day (admins). */
  tillSessions: '/till/sessions',
  /** A till session's cash-up (its clerk closes it there). */
  tillSession: (id: string) => `/till/sessions/${id}`,
  userProfile: '/user/profile',
  staffOrders: '/staff/orders',
  staffArea: '/staff',
  customerArea: '/customer',
  colleague: (id: string) => `/colleagues/${id}`,
  /** One order: under /admin/orders for admins, /staff/orders for staff. */
  orderDetail: (role: Role, id: string) => `/${role === 'admin' ? 'admin' : 'staff'}/orders/${id}`,
  /** Its receipt or delivery note, as a page to print. */
  orderDocument: (role: Role, id: string, document: 'receipt' | 'delivery-note') =>
    `/${role === 'admin' ? 'admin' : 'staff'}/orders/${id}/${document}`,
} as const;

/** Pages of the customer shop, which lives on its own origin. */
export const storefrontPaths = {
  home: `${env.storefrontUrl.replace(/\/$/, '')}/`,
  shop: `${env.storefrontUrl.replace(/\/$/, '')}/shop/products`,
  myOrders: `${env.storefrontUrl.replace(/\/$/, '')}/user/my-orders`,
} as const;

/** Where a signed-in user lands (login, home, the 404 page). */
export function landingFor(role: Role | undefined): string {
  if (role === 'admin') return paths.adminDashboard;
  if (role === 'staff') return paths.staffOrders;
  if (role === 'customer') return paths.userProfile;
  return '/';
}
