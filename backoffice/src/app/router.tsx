import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { AppLayout } from './app-layout';
import { AdminOnly, AdminOrStaff, HomeRedirect, RequireAuth, StaffOnly } from './guards';
import { CustomerAreaRoute, StaffAreaRoute } from './routes/areas';
import { NotFoundRoute } from './routes/not-found';

/** Every route of the back office; pages load lazily. */
export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: '/', element: <HomeRedirect /> },
      {
        path: '/authenticate/login',
        lazy: () =>
          import('../features/auth/routes/login').then((m) => ({ Component: m.LoginRoute })),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: '/dashboard', element: <HomeRedirect /> },
              {
                element: <AdminOnly />,
                children: [
                  {
                    path: '/admin/dashboard',
                    lazy: () =>
                      import('./routes/dashboard').then((m) => ({ Component: m.DashboardRoute })),
                  },
                  {
                    path: '/admin/staff',
                    lazy: () =>
                      import('../features/staff/routes/staff-list').then((m) => ({
                        Component: m.StaffListRoute,
                      })),
                  },
                  {
                    path: '/create-staff',
                    lazy: () =>
                      import('../features/staff/routes/create-staff').then((m) => ({
                        Component: m.CreateStaffRoute,
                      })),
                  },
                  {
                    path: '/edit-staff/:id',
                    lazy: () =>
                      import('../features/staff/routes/edit-staff').then((m) => ({
                        Component: m.EditStaffRoute,
                      })),
                  },
                  {
                    path: '/colleagues/:id',
                    lazy: () =>
                      import('../features/staff/routes/edit-staff').then((m) => ({
                        Component: m.EditStaffRoute,
                      })),
                  },
                  {
                    path: '/edit-user/:id',
                    lazy: () =>
                      import('./routes/edit-user').then((m) => ({ Component: m.EditUserPage })),
                  },
                  {
                    path: '/admin/orders',
                    lazy: () =>
                      import('../features/orders/routes/orders').then((m) => ({
                        Component: m.AdminOrdersRoute,
                      })),
                  },
                  {
                    path: '/admin/reports',
                    lazy: () =>
                      import('../features/reports/routes/reports').then((m) => ({
                        Component: m.ReportsRoute,
                      })),
                  },
                  {
                    path: '/admin/audit-trails',
                    lazy: () =>
                      import('../features/audit/routes/audit-trails').then((m) => ({
                        Component: m.AuditTrailsRoute,
                      })),
                  },
                ],
              },
              {
                element: <AdminOrStaff />,
                children: [
                  {
                    path: '/manage/products',
                    lazy: () =>
                      import('../features/products/routes/products').then((m) => ({
                        Component: m.ProductsRoute,
                      })),
                  },
                  {
                    path: '/manage/categories',
                    lazy: () =>
                      import('../features/categories/routes/categories').then((m) => ({
                        Component: m.CategoriesRoute,
                      })),
                  },
                ],
              },
              {
                element: <StaffOnly />,
                children: [
                  {
                    path: '/staff/orders',
                    lazy: () =>
                      import('../features/orders/routes/orders').then((m) => ({
                        Component: m.StaffOrdersRoute,
                      })),
                  },
                ],
              },
              {
                path: '/user/profile',
                lazy: () =>
                  import('../features/profile/routes/profile').then((m) => ({
                    Component: m.ProfileRoute,
                  })),
              },
              { path: '/staff', element: <StaffAreaRoute /> },
              { path: '/customer', element: <CustomerAreaRoute /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
