/** Every privacy route (issue 31) as the OpenAPI document names it; privacy.e2e-spec.ts tests who may call them. */
export const PRIVACY_ROUTES = [
  'GET /api/privacy/notice',
  'POST /api/privacy/requests',
  'POST /api/privacy/requests/{id}/confirm',
  'GET /api/admin/privacy/settings',
  'PUT /api/admin/privacy/settings',
  'GET /api/admin/data-requests',
  'POST /api/admin/data-requests/{id}/erase',
  'POST /api/admin/data-requests/{id}/export',
  'GET /api/users/profile/data-export',
  'POST /api/users/profile/delete',
  'GET /api/users/profile/consents',
  'PATCH /api/users/profile/consents',
  'POST /api/sms/inbound/{token}',
] as const;
