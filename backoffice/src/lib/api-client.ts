import { createApiClient } from '@spc/shared-contracts/client';
import { env } from '../config/env';
import { useSessionStore } from './session-store';

const apiBase = env.apiUrl.replace(/\/$/, '');
const NO_REFRESH = ['/api/auth/login', '/api/auth/refreshToken', '/api/auth/logout'];

let refreshing: Promise<string | null> | null = null;

/** One refresh at a time: the refresh token rotates and is single use. */
async function refreshAccessToken(): Promise<string | null> {
  const { refreshToken, setTokens } = useSessionStore.getState();
  if (!refreshToken) return null;
  try {
    const res = await fetch(`${apiBase}/api/auth/refreshToken`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as {
      data?: { accessToken: string; refreshToken: string };
    };
    if (!body.data) return null;
    setTokens(body.data);
    return body.data.accessToken;
  } catch {
    return null;
  }
}

/**
 * fetch with one silent refresh: a 401 on an authenticated call refreshes the tokens once and
 * retries; if that fails the session ends and the guards send the user to the login page, which
 * brings them back to the page they were on.
 */
export async function fetchWithRefresh(request: Request): Promise<Response> {
  const retry = request.clone();
  const session = useSessionStore.getState().refreshToken;
  const response = await fetch(request);
  const path = new URL(request.url).pathname;
  if (response.status !== 401 || NO_REFRESH.includes(path)) return response;
  // Only the session this request was made in ends: a late 401 must not sign out a newer sign-in.
  const endSession = () => {
    if (useSessionStore.getState().refreshToken === session) useSessionStore.getState().signOut();
  };
  if (!useSessionStore.getState().refreshToken) {
    endSession();
    return response;
  }
  refreshing ??= refreshAccessToken().finally(() => {
    refreshing = null;
  });
  const token = await refreshing;
  if (!token) {
    endSession();
    return response;
  }
  retry.headers.set('Authorization', `Bearer ${token}`);
  return fetch(retry);
}

/** The typed API client of this app. */
export const api = createApiClient({
  baseUrl: env.apiUrl,
  getAccessToken: () => useSessionStore.getState().token,
  fetch: (input) => fetchWithRefresh(input as Request),
});

/** Absolute URL of an uploaded image path the API returns. */
export function assetUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  return /^https?:/.test(path) ? path : `${apiBase}${path.startsWith('/') ? '' : '/'}${path}`;
}
