import type { TestApp } from './test-app';
import { bearer } from './identity';

/** The till's routes (issue 46), as the OpenAPI document names them; their role matrix is in
 * till-sales.e2e-spec.ts. */
export const TILL_ROUTES = [
  'PUT /api/till/pin',
  'PUT /api/till/pin/{staffId}',
  'POST /api/till/sessions',
  'GET /api/till/sessions/current',
  'GET /api/till/sessions',
  'GET /api/till/sessions/{id}',
  'POST /api/till/sessions/{id}/close',
  'POST /api/till/sessions/{id}/reopen',
  'GET /api/till/sessions/{id}/cash-up.csv',
  'GET /api/till/sessions/{id}/cash-up.pdf',
  'POST /api/till/sales',
  'POST /api/till/bookings/{orderId}/collect',
  'GET /api/till/sales',
  'GET /api/till/sales/{orderId}',
  'POST /api/till/sales/{orderId}/sms',
  'POST /api/till/sales/{orderId}/void',
  'POST /api/till/sales/{orderId}/refund',
  'POST /api/till/sales/{orderId}/settle',
] as const;

/** Only an admin takes these. */
export const TILL_ADMIN_ROUTES = [
  'PUT /api/till/pin/{staffId}',
  'POST /api/till/sessions/{id}/reopen',
];

/** Sets a person's own till PIN with their password. */
export async function setTillPin(
  t: TestApp,
  who: { accessToken: string; password: string },
  pin: string,
): Promise<void> {
  await t
    .http()
    .put('/api/till/pin')
    .set(bearer(who.accessToken))
    .send({ pin, currentPassword: who.password })
    .expect(200);
}

/** Opens a till session with this float; answers its id. */
export async function openTillSession(t: TestApp, token: string, float = 2000): Promise<string> {
  const res = await t.http().post('/api/till/sessions').set(bearer(token)).send({ float });
  if (res.status !== 201)
    throw new Error(`open session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session._id as string;
}
