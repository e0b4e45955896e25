/** The batch routes, as the OpenAPI document names them; their role matrix is in batches.e2e-spec.ts. */
export const BATCH_ROUTES = [
  'GET /api/batches',
  'POST /api/batches',
  'GET /api/batches/{id}',
  'PATCH /api/batches/{id}',
  'POST /api/batches/{id}/losses',
  'POST /api/batches/{id}/ready',
  'POST /api/batches/{id}/fail',
] as const;

/** Public batch reads: anyone may call them. */
export const PUBLIC_BATCH_ROUTES = [
  'GET /api/bookable-batches',
  'GET /api/bookings/settings',
] as const;
