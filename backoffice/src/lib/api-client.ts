import { STORAGE_KEYS, type components, type Role } from '@spc/shared-contracts';
import type { LooseApiClient } from '@spc/shared-contracts/client';
import { createWebClient } from '@spc/shared-contracts/web-client';
import { env } from '../config/env';

export type SessionUser = components['schemas']['UserDto'];

/** What is kept of the signed-in user under `loggedInUser`: role, _id and isAdmin, with the name. */
export interface LoggedInUser {
  _id: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  role: Role;
  isAdmin: boolean;
}

function isLoggedInUser(value: unknown): value is LoggedInUser {
  const user = value as Partial<LoggedInUser> | null;
  return typeof user?._id === 'string' && typeof user.role === 'string';
}

/**
 * The shared web client with the back office's settings: it keeps a smaller user and, for staff
 * and admins, the same user under `employee`.
 */
export const webClient = createWebClient<LoggedInUser, SessionUser>({
  apiUrl: env.apiUrl,
  toStoredUser: (user) => ({
    _id: user._id,
    fullName: user.fullName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    role: user.role as Role,
    isAdmin: user.role === 'admin',
  }),
  isStoredUser: isLoggedInUser,
  extraKeys: (user) => ({
    [STORAGE_KEYS.employee]: user && user.role !== 'customer' ? JSON.stringify(user) : null,
  }),
});

/** The typed API client of this app. */
export const api = webClient.api;

/**
 * The same client for the quotations' routes (issue 42), which the generated API types do not list
 * yet: the shared contract types their answers. Replace with `api` once the document is regenerated.
 */
export const looseApi = api as unknown as LooseApiClient;

const apiBase = env.apiUrl.replace(/\/$/, '');

/** Absolute URL of an uploaded image path the API returns. */
export function assetUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  return /^https?:/.test(path) ? path : `${apiBase}${path.startsWith('/') ? '' : '/'}${path}`;
}
