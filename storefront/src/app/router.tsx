import { usePrefetchQuery } from '@tanstack/react-query';
import { lazy, type ComponentType } from 'react';
import { Route, Routes, useSearchParams } from 'react-router';
import { productFiltersFrom, productsQueryOptions } from '../features/shop/api/get-products';
import { DashboardRoute, RequireAuth } from './guards';
import { MainLayout } from './layouts/main-layout';

/** React.lazy for a named export: every screen is its own chunk. */
function page<M>(load: () => Promise<M>, name: keyof M) {
  return lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));
}

const Home = page(() => import('../features/home/routes/home'), 'HomeRoute');
const Products = page(() => import('../features/shop/routes/products'), 'ProductsRoute');
const ProductDetail = page(
  () => import('../features/shop/routes/product-detail'),
  'ProductDetailRoute',
);
const CartPage = page(() => import('../features/cart/routes/cart-page'), 'CartPageRoute');
const Checkout = page(() => import('../features/checkout/routes/checkout'), 'CheckoutRoute');
const TrackOrders = page(
  () => import('../features/tracking/routes/track-orders'),
  'TrackOrdersRoute',
);
const Contact = page(() => import('../features/pages/routes/contact'), 'ContactRoute');
const About = page(() => import('../features/pages/routes/about'), 'AboutRoute');
const Profile = page(() => import('../features/user/routes/profile'), 'ProfileRoute');
const MyOrders = page(() => import('../features/user/routes/my-orders'), 'MyOrdersRoute');
const MyOrderDetail = page(
  () => import('../features/user/routes/order-detail'),
  'MyOrderDetailRoute',
);
const OrderDocument = page(
  () => import('../features/user/routes/order-document'),
  'OrderDocumentRoute',
);
const ForOrganisations = page(
  () => import('../features/organisations/routes/for-organisations'),
  'ForOrganisationsRoute',
);
const MyOrganisation = page(
  () => import('../features/organisations/routes/my-organisation'),
  'MyOrganisationRoute',
);
const Privacy = page(() => import('../features/privacy/routes/privacy'), 'PrivacyRoute');
const NotFound = page(() => import('../features/pages/routes/not-found'), 'NotFoundRoute');
const Login = page(() => import('../features/auth/routes/login'), 'LoginRoute');
const Register = page(() => import('../features/auth/routes/register'), 'RegisterRoute');
const ForgotPassword = page(
  () => import('../features/auth/routes/forgot-password'),
  'ForgotPasswordRoute',
);
const ResetPassword = page(
  () => import('../features/auth/routes/reset-password'),
  'ResetPasswordRoute',
);

/** The shop asks for its products while its code is still loading, not after (LCP on a phone). */
function ShopProducts() {
  const [params] = useSearchParams();
  usePrefetchQuery(productsQueryOptions(productFiltersFrom(params)));
  return <Products />;
}

/** Every route of the spec's table; the auth pages sit outside the layout. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<MainLayout />}>
        <Route index element={<Home />} />
        <Route path="shop/products" element={<ShopProducts />} />
        <Route path="single/product/:id" element={<ProductDetail />} />
        <Route path="viewCart" element={<CartPage />} />
        <Route path="checkout" element={<Checkout />} />
        <Route path="track-orders" element={<TrackOrders />} />
        <Route path="orders/:id/:document" element={<OrderDocument />} />
        <Route path="contactUs" element={<Contact />} />
        <Route path="aboutUs" element={<About />} />
        <Route path="privacy" element={<Privacy />} />
        <Route path="organisations" element={<ForOrganisations />} />
        {/* Guards itself, to come back here after signing in (the invitation e-mail's link). */}
        <Route path="user/organisation" element={<MyOrganisation />} />
        <Route element={<RequireAuth />}>
          <Route path="user/profile" element={<Profile />} />
        </Route>
        <Route element={<RequireAuth customerOnly />}>
          <Route path="user/my-orders" element={<MyOrders />} />
          <Route path="user/my-orders/:id" element={<MyOrderDetail />} />
        </Route>
        <Route path="dashboard" element={<DashboardRoute />} />
        <Route path="*" element={<NotFound />} />
      </Route>
      <Route path="authenticate/login" element={<Login />} />
      <Route path="authenticate/register" element={<Register />} />
      <Route path="authenticate/forgotPassword" element={<ForgotPassword />} />
      <Route path="authenticate/resetPassword/:code" element={<ResetPassword />} />
    </Routes>
  );
}
