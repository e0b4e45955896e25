/** The invoices' settlement routes (issue 44): staff and admin only; their access is tested in invoices-settle. */
export const INVOICE_SETTLEMENT_ROUTES = [
  'POST /api/invoices/{id}/payments',
  'POST /api/invoices/{id}/withholding',
  'POST /api/invoices/{id}/credit-notes',
] as const;
