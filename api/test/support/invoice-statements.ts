/**
 * The statement's route (issue 44) as the OpenAPI document names it: its role matrix (anonymous
 * 401; the shop and the organisation's own people 200; another's 404) is tested in
 * invoices-statement.e2e-spec.ts.
 */
export const STATEMENT_ROUTES = ['GET /api/organisations/{id}/statement'] as const;
