import { createApiClient } from '@spc/shared-contracts/client';
import { env } from '../config/env';
import { useSessionStore } from '../stores/session-store';

/** An API failure carrying the server's `message` (DECISIONS §1: clients show `message`). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let refreshing: Promise<string | null> | null = null;

/** Exchanges the stored refresh token once for a new pair; concurrent 401s share one exchange. */
function refreshSession(): Promise<string | null> {
  refreshing ??= (async () => {
    const refreshToken = useSessionStore.getState().refreshToken;
    if (!refreshToken) return null;
    try {
      const res = await fetch(`${env.apiUrl.replace(/\/$/, '')}/api/auth/refreshToken`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      });
      if (!res.ok) return null;
      const body = (await res.json()) as { data?: { accessToken: string; refreshToken: string } };
      if (!body.data) return null;
      useSessionStore.getState().setTokens(body.data);
      return body.data.accessToken;
    } catch {
      return null;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** fetch with one silent refresh on a 401 of a signed-in call, then sign-out if that fails. */
export const fetchWithRefresh: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const retry = request.clone();
  const session = useSessionStore.getState().refreshToken;
  const response = await fetch(request);
  const isAuthCall = new URL(request.url).pathname.startsWith('/api/auth/');
  if (response.status !== 401 || isAuthCall || !request.headers.has('Authorization')) {
    return response;
  }
  const token = await refreshSession();
  if (!token) {
    // Only the session this request was made in ends: a late 401 must not sign out a newer sign-in.
    if (useSessionStore.getState().refreshToken === session) useSessionStore.getState().signOut();
    return response;
  }
  retry.headers.set('Authorization', `Bearer ${token}`);
  return fetch(retry);
};

/** The typed API client of this app. */
export const api = createApiClient({
  baseUrl: env.apiUrl,
  getAccessToken: () => useSessionStore.getState().token,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => fetchWithRefresh(input, init),
});

/** Unwraps an openapi-fetch answer: the data, or an ApiError with the server's message. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    const message =
      (error as { message?: unknown } | undefined)?.message ??
      (response.status >= 500 ? 'Something went wrong' : response.statusText);
    throw new ApiError(
      Array.isArray(message) ? message.join(', ') : String(message),
      response.status,
    );
  }
  return data;
}

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
