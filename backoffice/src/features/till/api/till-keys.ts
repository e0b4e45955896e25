/**
 * The query keys of the till: a sale, a void, a refund or a close refreshes everything under
 * `all` (the current session's totals, the day's sales, the cash-up).
 */
export const tillKeys = {
  all: ['till'] as const,
  currentSession: () => [...tillKeys.all, 'session', 'current'] as const,
  sessions: (day: string) => [...tillKeys.all, 'sessions', { day }] as const,
  cashUp: (sessionId: string) => [...tillKeys.all, 'cash-up', sessionId] as const,
  sales: (sessionId: string) => [...tillKeys.all, 'sales', { sessionId }] as const,
  sale: (orderId: string) => [...tillKeys.all, 'sale', orderId] as const,
  products: (search: string) => [...tillKeys.all, 'products', { search }] as const,
  approvers: () => [...tillKeys.all, 'approvers'] as const,
  /** Bookings ready to collect at the gate (under `all`: a collection refreshes them). */
  bookings: () => [...tillKeys.all, 'bookings'] as const,
};
