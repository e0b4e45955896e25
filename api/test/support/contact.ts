/** The contact routes as the OpenAPI document names them (their matrix is in contact.e2e-spec). */
export const CONTACT_ROUTES = [
  'POST /api/contact',
  'GET /api/contact-messages',
  'PATCH /api/contact-messages/{id}/read',
  'GET /api/site/contacts',
] as const;
