/**
 * Batches of seedlings still growing, and bookings against them (issue 32). The API answers these
 * codes; the apps show them as they are.
 */

/** A batch's status. `Sold out` is derived: growing with nothing left to book. */
export const BATCH_STATUSES = ['Growing', 'Ready', 'Sold out', 'Failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
/** The statuses a batch stores (`Sold out` is never stored). */
export const STORED_BATCH_STATUSES = ['Growing', 'Ready', 'Failed'] as const;
export type StoredBatchStatus = (typeof STORED_BATCH_STATUSES)[number];

/**
 * A booking's state: Deposit due → Booked (deposit paid) → Balance due (batch ready) → Paid; side
 * exits Expired, Released, Affected (its batch failed or fell short), Refunded.
 */
export const BOOKING_STATES = [
  'Deposit due',
  'Booked',
  'Balance due',
  'Paid',
  'Expired',
  'Released',
  'Affected',
  'Refunded',
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

export const SEASON_KEYS = ['long-rains', 'short-rains'] as const;
export type SeasonKey = (typeof SEASON_KEYS)[number];
export const SEASON_NAMES: Record<SeasonKey, string> = {
  'long-rains': 'Long rains',
  'short-rains': 'Short rains',
};

/** The storefront's availability filter on the product list. */
export const AVAILABILITY_FILTERS = ['now', 'long-rains', 'short-rains'] as const;
export type AvailabilityFilter = (typeof AVAILABILITY_FILTERS)[number];

export const BATCH_LIMITS = {
  maxStarted: 1_000_000,
  noteMaxLength: 500,
  /** Bookable batches a product in the catalogue shows, soonest first. */
  batchesPerProduct: 3,
  pageSize: 20,
  maxPageSize: 100,
} as const;

export const BOOKING_MESSAGES = {
  oneBatch:
    'A booking holds seedlings of one batch: order ready-now seedlings and other batches separately',
  batchReady: 'This batch is ready: order its seedlings as ready stock',
  batchFailed: 'This batch failed',
  batchGone: 'This batch no longer exists',
  batchOfAnotherProduct: 'This batch is not a batch of this product',
  onlyLeft: (n: number) => `Only ${n} seedlings left to book in this batch`,
  readyBeforeSown: 'The ready date cannot be before the sowing date',
  notGrowing: 'Only a growing batch can be changed',
  lossTooLarge: (n: number) =>
    `Only ${n} seedlings are in this batch: a loss cannot take it below 0`,
  alreadyReady: 'This batch is already ready',
  alreadyFailed: 'This batch already failed',
  shortOfBookings: (booked: number, held: number) =>
    `${booked} seedlings are booked but the batch holds ${held}: move or refund the affected bookings first`,
} as const;
