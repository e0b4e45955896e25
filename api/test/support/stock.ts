/** The stock ledger's routes, as the OpenAPI document names them; their role matrix is in stock-ledger.e2e-spec.ts. */
export const STOCK_ROUTES = [
  'GET /api/stock/low',
  'GET /api/stock/products/{id}/movements',
  'POST /api/stock/products/{id}/losses',
  'POST /api/stock/products/{id}/counts',
  'PATCH /api/stock/products/{id}/threshold',
] as const;
