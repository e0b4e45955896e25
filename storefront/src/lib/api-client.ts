import { createWebClient } from '@spc/shared-contracts/web-client';
import { env } from '../config/env';
import type { User } from './types';

import { ApiError } from '@spc/shared-contracts/web-client';

export { ApiError, unwrap } from '@spc/shared-contracts/web-client';

/** The signed-in user as stored under `loggedInUser` (role and _id are what the app reads). */
export type SessionUser = Pick<User, '_id' | 'fullName' | 'email' | 'role'> &
  Partial<Pick<User, 'phoneNumber' | 'county' | 'streetAddress' | 'profilePicture' | 'kraPin'>> & {
    isAdmin?: boolean;
  };

function isSessionUser(value: unknown): value is SessionUser {
  const user = value as Partial<SessionUser> | null;
  return typeof user?._id === 'string' && typeof user.role === 'string';
}

/** The shared web client with this app's settings: the shop keeps the customer's delivery fields. */
export const webClient = createWebClient<SessionUser, SessionUser>({
  apiUrl: env.apiUrl,
  toStoredUser: (user) => ({ ...user, isAdmin: user.role === 'admin' }),
  isStoredUser: isSessionUser,
});

/** The typed API client of this app. */
export const api = webClient.api;
export const fetchWithRefresh = webClient.fetch;

/** A URL path the API serves (`/api/uploads/...`) made absolute. */
export function assetUrl(path: string | undefined | null): string {
  if (!path) return '';
  if (/^https?:/.test(path)) return path;
  return `${env.apiUrl.replace(/\/$/, '')}${path}`;
}

/** `srcset` for the API's WebP widths (320/640/1024). */
export function srcSet(images: Record<string, string> | undefined | null): string | undefined {
  if (!images) return undefined;
  const entries = Object.entries(images).filter(([w]) => /^\d+$/.test(w));
  if (!entries.length) return undefined;
  return entries.map(([w, url]) => `${assetUrl(url)} ${w}w`).join(', ');
}

/** Said when the API gave no answer at all (offline, network down): never the browser's own words. */
export const NO_ANSWER_TEXT =
  'The shop cannot be reached right now. Check your internet connection and try again.';

/** What a screen says of a failed call: the API's own words, or NO_ANSWER_TEXT when none came. */
export function problemText(error: unknown): string {
  return error instanceof ApiError ? error.message : NO_ANSWER_TEXT;
}
