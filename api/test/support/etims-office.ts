/**
 * The back office's eTIMS routes (issue 45), as the OpenAPI document names them; who may call them
 * is tested in etims-office.e2e-spec.ts (they need eTIMS on, against the simulator).
 */
export const ETIMS_OFFICE_ROUTES = [
  'GET /api/etims/documents',
  'POST /api/etims/documents/{source}/resend',
  'POST /api/etims/documents/{source}/signature',
  'GET /api/reports/etims',
  'GET /api/reports/etims.csv',
] as const;
