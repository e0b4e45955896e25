/**
 * The invoices' reading and issuing routes (issue 44), as the OpenAPI document names them; who
 * may call them is tested in invoices-issue.e2e-spec.ts.
 */
export const INVOICE_ISSUE_ROUTES = [
  'GET /api/invoices',
  'GET /api/invoices/{id}',
  'GET /api/invoices/{id}/pdf',
  'GET /api/orders/{id}/invoices',
  'POST /api/orders/{id}/invoices',
] as const;
