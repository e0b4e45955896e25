import { usePrefetchQuery, type QueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import {
  createRoutesFromChildren,
  matchRoutes,
  Route,
  useRoutes,
  useSearchParams,
} from 'react-router';
import { paymentOptionsQueryOptions } from '../features/checkout/api/get-payment-options';
import { productQueryOptions } from '../features/shop/api/get-product';
import { productFiltersFrom, productsQueryOptions } from '../features/shop/api/get-products';
import {
  CARD_PICTURE_SIZES,
  DETAIL_PICTURE_SIZES,
  EAGER_CARDS,
  preloadPicture,
  productPicture,
} from '../lib/picture-preload';
import { sitePicturesQueryOptions } from '../lib/site-pictures';
import { CHECKOUT_STEPS, Steps } from '../components/steps';
import { DashboardRoute, RequireAuth } from './guards';
import { MainLayout } from './layouts/main-layout';
import { page, type Preloadable } from './page';

// The hero shows the shop's own photos where it has them: which ones is asked with the code. (The
// featured products, further down, are asked for when the page renders.)
const Home = page(
  () => import('../features/home/routes/home'),
  'HomeRoute',
  (client) => void client.prefetchQuery(sitePicturesQueryOptions()),
);
const Products = page(
  () => import('../features/shop/routes/products'),
  'ProductsRoute',
  // The first row's pictures (the page's largest paint on a phone) are asked for as soon as the
  // list naming them is in, beside the grid's first render.
  (client, _, search) => {
    const list = productsQueryOptions(productFiltersFrom(search));
    void client.prefetchQuery(list).then(() => {
      for (const p of client.getQueryData(list.queryKey)?.products.slice(0, EAGER_CARDS) ?? [])
        preloadPicture(productPicture(p.productImage, p.productImages, CARD_PICTURE_SIZES));
    });
  },
);
const ProductDetail = page(
  () => import('../features/shop/routes/product-detail'),
  'ProductDetailRoute',
  (client, { id = '' }) => {
    const product = productQueryOptions(id);
    void client.prefetchQuery(product).then(() => {
      const p = client.getQueryData(product.queryKey)?.product;
      if (p) preloadPicture(productPicture(p.productImage, p.productImages, DETAIL_PICTURE_SIZES));
    });
  },
);
const CartPage = page(() => import('../features/cart/routes/cart-page'), 'CartPageRoute');
const Checkout = page(
  () => import('../features/checkout/routes/checkout'),
  'CheckoutRoute',
  (client) => void client.prefetchQuery(paymentOptionsQueryOptions()),
  // Its form's code (react-hook-form) is a third of the app's script again: the heading comes first.
  () => (
    <div className="page" aria-busy="true">
      <Steps current={1} labels={CHECKOUT_STEPS} />
      <h1>Checkout</h1>
    </div>
  ),
);
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
ShopProducts.load = Products.load;
ShopProducts.prefetch = Products.prefetch;

/** Every route of the spec's table; the auth pages sit outside the layout. */
const routes = createRoutesFromChildren(
  <>
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
  </>,
);

export function AppRoutes() {
  return useRoutes(routes);
}

/**
 * Loads the code of the screen at this address and starts its first data (and the layout's),
 * before the app first renders (main.tsx): the screen then comes in one go, its code beside the
 * app's own script and its data beside its code, instead of each waiting for the one before.
 */
export function preloadScreen(
  client: QueryClient,
  { pathname, search }: { pathname: string; search: string },
): Promise<unknown> {
  const query = new URLSearchParams(search);
  return Promise.all(
    (matchRoutes(routes, pathname) ?? []).map(({ route, params }) => {
      const screen = (route.element as ReactElement | undefined)?.type as Preloadable | undefined;
      screen?.prefetch?.(client, params, query);
      const code = screen?.load?.();
      // A screen with a shell shows it at once; its code comes in behind it.
      return screen?.shell ? undefined : code;
    }),
  );
}
