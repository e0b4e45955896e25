/** Roles a signed-in principal can hold; the API says `customer` where the storefront says "user". */
export const ROLES = ['admin', 'staff', 'customer'] as const;
export type Role = (typeof ROLES)[number];
/** Who acts: a person of a role, or the shop itself (the expiry loop, M-Pesa Express). */
export const ACTOR_KINDS = [...ROLES, 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Order life cycle: the statuses an order moves through. */
export const ORDER_STATUSES = [
  'Pending',
  'Processing',
  'InTransit',
  'Delivered',
  'Completed',
  'Cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['Pending', 'Paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const FULFILLMENT_STATUSES = ['Unfulfilled', 'Fulfilled'] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

export const PAYMENT_METHODS = ['Cash', 'Mpesa'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** List sizes: what one page of each list holds. */
export const PAGE_SIZE = {
  products: 12,
  users: 10,
  staff: 10,
  orders: 10,
  auditLogs: 50,
} as const;
export const MAX_PAGE_SIZE = 100;

/** Field limits the forms and the API share. */
export const LIMITS = {
  passwordMinLength: 6,
  /** Checkout and registration phone numbers. */
  checkoutPhoneMaxLength: 13,
  /** Staff and user forms in the back office. */
  staffPhoneMaxLength: 10,
  /** Digits the back office's phone input accepts by default. */
  phoneInputMaxDigits: 15,
  imageMaxBytes: 5 * 1024 * 1024,
  /**
   * JSON bodies above this are refused with 413 (the largest any route takes: an order of 50 lines,
   * a delivery zone of 200 areas); some routes take less.
   */
  jsonBodyMaxBytes: 64 * 1024,
} as const;

export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Timings in milliseconds, as the specs fix them. */
export const TIMINGS = {
  toastAutoCloseMs: 3000,
  redirectAfterSuccessMs: 2000,
  changePasswordModalCloseMs: 2000,
  deleteModalCloseMs: 2000,
  heroCarouselIntervalMs: 7000,
  heroCarouselItems: 3,
  heroFadeMs: 1000,
  testimonialsIntervalMs: 3000,
  bannerScrollMs: 20000,
  queryStaleTimeMs: 60_000,
} as const;

export const BREAKPOINTS = { desktop: 992, tablet: 768, phone: 576 } as const;

/** Money is a whole number of Kenyan shillings. The storefront writes KES, the back office KSH. */
export const CURRENCY = { code: 'KES', storefrontLabel: 'KES', backofficeLabel: 'KSH' } as const;

export const SHIPPING_FEE_KES = 0;
export const ESTIMATED_DELIVERY_DAYS = 3;

/** Catalogue price range the storefront's slider shows before the list has loaded. */
export const DEFAULT_PRICE_RANGE = { min: 0, max: 100_000 } as const;

/** `SPD` + 8 characters of an alphabet without 0/O and 1/I. */
export const PURCHASE_NUMBER = {
  prefix: 'SPD',
  length: 8,
  alphabet: '23456789ABCDEFGHJKLMNPQRSTUVWXYZ',
} as const;
export const PURCHASE_NUMBER_PATTERN = new RegExp(
  `^${PURCHASE_NUMBER.prefix}[${PURCHASE_NUMBER.alphabet}]{${PURCHASE_NUMBER.length}}$`,
);

/** The shop's time zone: daily and weekly sales are counted in it; a week starts on Monday. */
export const SHOP_TIME_ZONE = 'Africa/Nairobi';

/** Pagination shows every page up to this many; beyond it, first, last, a window and ellipses. */
export const PAGINATION_FULL_MAX = 8;

export const COUNTY_COUNT = 47;

/** Browser storage keys shared by both apps. */
export const STORAGE_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  loggedInUser: 'loggedInUser',
  employee: 'employee',
} as const;

/**
 * A phone number as people type it: digits, optionally a leading +, spaces or hyphens between; at
 * least 9 characters. Stored as typed after trimming.
 */
export const PHONE_PATTERN = /^\+?\d[\d -]{7,}\d$/;

/** Upper bounds of free-text fields, so no form or payload can grow without limit. */
export const TEXT_LIMITS = {
  fullName: 100,
  email: 254,
  password: 128,
  county: 60,
  streetAddress: 200,
} as const;

/** A MongoDB ObjectId as text: 24 hexadecimal characters. */
export const OBJECT_ID_PATTERN = /^[0-9a-fA-F]{24}$/;
