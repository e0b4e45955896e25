/** Every route of the storefront in one place. */
export const paths = {
  home: '/',
  shop: '/shop/products',
  product: (id: string) => `/single/product/${id}`,
  cart: '/viewCart',
  checkout: '/checkout',
  /** The checkout of one order of the cart: its ready-now lines (''), or one batch's booking. */
  checkoutOf: (batch: string) =>
    batch ? `/checkout?batch=${encodeURIComponent(batch)}` : '/checkout',
  track: '/track-orders',
  contact: '/contactUs',
  about: '/aboutUs',
  privacy: '/privacy',
  login: '/authenticate/login',
  register: '/authenticate/register',
  forgotPassword: '/authenticate/forgotPassword',
  resetPassword: (token: string) => `/authenticate/resetPassword/${token}`,
  profile: '/user/profile',
  myOrders: '/user/my-orders',
  myOrder: (id: string) => `/user/my-orders/${id}`,
  organisations: '/organisations',
  myOrganisation: '/user/organisation',
  dashboard: '/dashboard',
} as const;
