/** The dispatch desk's routes; their role matrix is in order-desk.e2e-spec.ts. */
export const ORDER_DESK_ROUTES = [
  'GET /api/orders/queue',
  'POST /api/orders/bulk',
  'GET /api/orders/export.csv',
];
