/** Every delivery route as the OpenAPI document names it (their access is tested in delivery.e2e-spec). */
export const DELIVERY_ROUTES = [
  'GET /api/delivery/options',
  'GET /api/delivery/zones',
  'POST /api/delivery/zones',
  'PUT /api/delivery/zones/{id}',
  'DELETE /api/delivery/zones/{id}',
] as const;
