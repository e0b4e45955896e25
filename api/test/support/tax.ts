/** The tax settings routes as the OpenAPI document names them (their matrix is in catalog-tax). */
export const TAX_ROUTES = ['GET /api/tax/settings', 'PUT /api/tax/settings'] as const;
