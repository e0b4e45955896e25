/** The bookings routes, as the OpenAPI document names them; their role matrix is in bookings.e2e-spec.ts. */
export const BOOKING_ROUTES = [
  'POST /api/orders/{id}/booking/deposit',
  'POST /api/orders/{id}/booking/move',
  'POST /api/orders/{id}/booking/refund',
  'GET /api/bookings/queue',
  'GET /api/bookings/counts',
] as const;
