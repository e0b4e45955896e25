import { randomBytes } from 'node:crypto';
import type { TestApp } from './test-app';

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: { _id: string; email: string; role: string; fullName: string };
}

export const STRONG_PASSWORD = 'Seedling#2026';

/** A unique e-mail per call, so tests never collide on the unique index. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${randomBytes(4).toString('hex')}@example.co.ke`;
}

export async function signIn(t: TestApp, email: string, password: string): Promise<Session> {
  const res = await t.http().post('/api/auth/login').send({ email, password });
  if (res.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Session;
}

export function signInAdmin(t: TestApp): Promise<Session> {
  return signIn(t, t.config.admin.email, t.config.admin.password);
}

export async function registerCustomer(
  t: TestApp,
  overrides: Partial<{
    fullName: string;
    email: string;
    phoneNumber: string;
    password: string;
  }> = {},
): Promise<Session & { password: string }> {
  const body = {
    fullName: 'Wanjiku Kamau',
    email: uniqueEmail('customer'),
    phoneNumber: '+254712345678',
    password: STRONG_PASSWORD,
    ...overrides,
  };
  const res = await t.http().post('/api/auth/register').send(body);
  if (res.status !== 201)
    throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...(await signIn(t, body.email, body.password)), password: body.password };
}

export async function createStaff(
  t: TestApp,
  adminToken: string,
  overrides: Partial<{
    fullName: string;
    email: string;
    phoneNumber: string;
    password: string;
  }> = {},
): Promise<Session & { password: string }> {
  const body = {
    fullName: 'Peter Mwangi',
    email: uniqueEmail('staff'),
    phoneNumber: '0712345678',
    password: 'Staff#123456',
    ...overrides,
  };
  const res = await t
    .http()
    .post('/api/staff')
    .set('Authorization', `Bearer ${adminToken}`)
    .send(body);
  if (res.status !== 201)
    throw new Error(`create staff failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...(await signIn(t, body.email, body.password)), password: body.password };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Test apps of identity suites: sign-in is not rate limited unless a test says so. */
export const UNTHROTTLED = {
  RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  RATE_LIMIT_TRACKING_PER_MINUTE: '10000',
  RATE_LIMIT_ORDERS_PER_MINUTE: '10000',
};
