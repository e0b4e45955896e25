import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { AppLayout } from './app-layout';
import { AdminOnly, AdminOrStaff, HomeRedirect, RequireAuth, StaffOnly } from './guards';
import { CustomerAreaRoute, StaffAreaRoute } from './routes/areas';
import { NotFoundRoute } from './routes/not-found';

/** React.lazy for a named export: every screen is its own chunk. */
function page<M>(load: () => Promise<M>, name: keyof M) {
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));
}

const Login = page(() => import('../features/auth/routes/login'), 'LoginRoute');
const ForgotPassword = page(
  () => import('../features/auth/routes/forgot-password'),
  'ForgotPasswordRoute',
);
const ResetPassword = page(
  () => import('../features/auth/routes/reset-password'),
  'ResetPasswordRoute',
);
const Dashboard = page(() => import('./routes/dashboard'), 'DashboardRoute');
const StaffList = page(() => import('../features/staff/routes/staff-list'), 'StaffListRoute');
const CreateStaff = page(() => import('../features/staff/routes/create-staff'), 'CreateStaffRoute');
const EditStaff = page(() => import('../features/staff/routes/edit-staff'), 'EditStaffRoute');
const EditUser = page(() => import('./routes/edit-user'), 'EditUserPage');
const AdminOrders = page(() => import('../features/orders/routes/orders'), 'AdminOrdersRoute');
const StaffOrders = page(() => import('../features/orders/routes/orders'), 'StaffOrdersRoute');
const AdminOrderDetail = page(
  () => import('../features/orders/routes/order-detail'),
  'AdminOrderDetailRoute',
);
const StaffOrderDetail = page(
  () => import('../features/orders/routes/order-detail'),
  'StaffOrderDetailRoute',
);
const AdminOrderPrint = page(
  () => import('../features/orders/routes/order-print'),
  'AdminOrderPrintRoute',
);
const StaffOrderPrint = page(
  () => import('../features/orders/routes/order-print'),
  'StaffOrderPrintRoute',
);
const Reports = page(() => import('../features/reports/routes/reports'), 'ReportsRoute');
const AuditTrails = page(() => import('../features/audit/routes/audit-trails'), 'AuditTrailsRoute');
const Products = page(() => import('../features/products/routes/products'), 'ProductsRoute');
const Categories = page(
  () => import('../features/categories/routes/categories'),
  'CategoriesRoute',
);
const SitePictures = page(
  () => import('../features/site-pictures/routes/site-pictures'),
  'SitePicturesRoute',
);
const ProductStock = page(
  () => import('../features/stock/routes/product-stock'),
  'ProductStockRoute',
);
const Messages = page(() => import('../features/messages/routes/messages'), 'MessagesRoute');
const DataRequests = page(
  () => import('../features/privacy/routes/data-requests'),
  'DataRequestsRoute',
);
const PrivacySettings = page(
  () => import('../features/privacy/routes/privacy-settings'),
  'PrivacySettingsRoute',
);
const PaymentsInbox = page(
  () => import('../features/orders/routes/payments-inbox'),
  'PaymentsInboxRoute',
);
const DeliveryZones = page(
  () => import('../features/delivery-zones/routes/delivery-zones'),
  'DeliveryZonesRoute',
);
const Batches = page(() => import('../features/batches/routes/batches'), 'BatchesRoute');
const BatchDetail = page(
  () => import('../features/batches/routes/batch-detail'),
  'BatchDetailRoute',
);
const Bookings = page(() => import('../features/bookings/routes/bookings'), 'BookingsRoute');
const Organisations = page(
  () => import('../features/organisations/routes/organisations'),
  'OrganisationsRoute',
);
const OrganisationDetail = page(
  () => import('../features/organisations/routes/organisation-detail'),
  'OrganisationDetailRoute',
);
const Quotations = page(
  () => import('../features/quotations/routes/quotations'),
  'QuotationsRoute',
);
const QuotationDetail = page(
  () => import('../features/quotations/routes/quotation-detail'),
  'QuotationDetailRoute',
);
const Invoices = page(() => import('../features/invoices/routes/invoices'), 'InvoicesRoute');
const InvoiceDetail = page(
  () => import('../features/invoices/routes/invoice-detail'),
  'InvoiceDetailRoute',
);
const EtimsQueue = page(() => import('../features/etims/routes/etims-queue'), 'EtimsQueueRoute');
const EtimsSummary = page(
  () => import('../features/etims/routes/etims-summary'),
  'EtimsSummaryRoute',
);
const Till = page(() => import('../features/till/routes/till'), 'TillRoute');
const TillReceipt = page(() => import('../features/till/routes/till-receipt'), 'TillReceiptRoute');
const TillOfflineReceipt = page(
  () => import('../features/till/routes/till-offline-receipt'),
  'TillOfflineReceiptRoute',
);
const TillSession = page(() => import('../features/till/routes/till-session'), 'TillSessionRoute');
const TillSessions = page(
  () => import('../features/till/routes/till-sessions'),
  'TillSessionsRoute',
);
const Profile = page(() => import('../features/profile/routes/profile'), 'ProfileRoute');

/** Every route of the back office; pages load lazily. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<HomeRedirect />} />
      <Route path="/authenticate/login" element={<Login />} />
      <Route path="/authenticate/forgotPassword" element={<ForgotPassword />} />
      <Route path="/authenticate/resetPassword/:code" element={<ResetPassword />} />
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route path="/dashboard" element={<HomeRedirect />} />
          <Route element={<AdminOnly />}>
            <Route path="/admin/dashboard" element={<Dashboard />} />
            <Route path="/admin/staff" element={<StaffList />} />
            <Route path="/create-staff" element={<CreateStaff />} />
            <Route path="/edit-staff/:id" element={<EditStaff />} />
            <Route path="/colleagues/:id" element={<EditStaff />} />
            <Route path="/edit-user/:id" element={<EditUser />} />
            <Route path="/admin/orders" element={<AdminOrders />} />
            <Route path="/admin/orders/:id" element={<AdminOrderDetail />} />
            <Route path="/admin/reports" element={<Reports />} />
            <Route path="/admin/audit-trails" element={<AuditTrails />} />
            <Route path="/admin/site-pictures" element={<SitePictures />} />
            <Route path="/admin/delivery-zones" element={<DeliveryZones />} />
            <Route path="/admin/data-requests" element={<DataRequests />} />
            <Route path="/admin/privacy" element={<PrivacySettings />} />
            <Route path="/till/sessions" element={<TillSessions />} />
          </Route>
          <Route element={<AdminOrStaff />}>
            <Route path="/manage/products" element={<Products />} />
            <Route path="/manage/products/:id/stock" element={<ProductStock />} />
            <Route path="/manage/categories" element={<Categories />} />
            <Route path="/manage/messages" element={<Messages />} />
            <Route path="/manage/payments" element={<PaymentsInbox />} />
            <Route path="/manage/batches" element={<Batches />} />
            <Route path="/manage/batches/:id" element={<BatchDetail />} />
            <Route path="/manage/bookings" element={<Bookings />} />
            <Route path="/manage/organisations" element={<Organisations />} />
            <Route path="/manage/organisations/:id" element={<OrganisationDetail />} />
            <Route path="/manage/quotations" element={<Quotations />} />
            <Route path="/manage/quotations/:id" element={<QuotationDetail />} />
            <Route path="/invoices" element={<Invoices />} />
            <Route path="/invoices/:id" element={<InvoiceDetail />} />
            <Route path="/manage/etims" element={<EtimsQueue />} />
            <Route path="/manage/etims/summary" element={<EtimsSummary />} />
            <Route path="/till" element={<Till />} />
            <Route path="/till/sessions/:id" element={<TillSession />} />
          </Route>
          <Route element={<StaffOnly />}>
            <Route path="/staff/orders" element={<StaffOrders />} />
            <Route path="/staff/orders/:id" element={<StaffOrderDetail />} />
          </Route>
          <Route path="/user/profile" element={<Profile />} />
          <Route path="/staff" element={<StaffAreaRoute />} />
          <Route path="/customer" element={<CustomerAreaRoute />} />
        </Route>
        {/* Receipts and delivery notes print on their own, without the console's frame. */}
        <Route element={<AdminOnly />}>
          <Route path="/admin/orders/:id/:document" element={<AdminOrderPrint />} />
        </Route>
        <Route element={<StaffOnly />}>
          <Route path="/staff/orders/:id/:document" element={<StaffOrderPrint />} />
        </Route>
        <Route element={<AdminOrStaff />}>
          <Route path="/till/receipt/:orderId" element={<TillReceipt />} />
          <Route path="/till/offline-receipt/:key" element={<TillOfflineReceipt />} />
        </Route>
      </Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
