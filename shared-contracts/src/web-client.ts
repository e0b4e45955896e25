/**
 * The browser side of talking to the API, one copy for both apps: the session kept in storage under
 * the spec's keys, fetch with a silent refresh on a 401 (one refresh at a time, ending only the
 * session the request was made in), `ApiError` carrying the server's message and code, and
 * unwrapping of openapi-fetch results. Each app gives only its settings (which user fields it keeps,
 * the keys it adds).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createApiClient, type ApiClient } from './client';
import { STORAGE_KEYS } from './constants';
import type { ErrorCode } from './error-codes';

// ---------------------------------------------------------------------------------------------
// Errors and unwrapping

export interface FieldError {
  field: string;
  messages: string[];
}

/** An error answer of the API: its message (what screens show) and its code (what code branches on). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The API's machine-readable reason; undefined when the answer did not come from the API. */
    readonly code?: ErrorCode,
    readonly errors?: FieldError[],
    /** The server's own message, when it gave one (`message` falls back to a generic text). */
    readonly serverMessage?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Result<T> = { data?: T; error?: unknown; response: Response };

function toApiError(body: unknown, response: Response): ApiError {
  const { message, code, errors } = (body ?? {}) as {
    message?: unknown;
    code?: unknown;
    errors?: unknown;
  };
  const server = Array.isArray(message)
    ? message.join(', ')
    : typeof message === 'string' && message
      ? message
      : undefined;
  const fallback = response.status >= 500 ? 'Something went wrong' : response.statusText;
  return new ApiError(
    server ?? fallback,
    response.status,
    codeOf(code),
    Array.isArray(errors) ? (errors as FieldError[]) : undefined,
    server,
  );
}

/**
 * The answer's `code`, read by its shape: the API sends only the codes of ERROR_CODE_LIST (its
 * tests check every answer), so the list of names stays out of every phone's first download.
 */
const codeOf = (value: unknown): ErrorCode | undefined =>
  typeof value === 'string' && /^[A-Z][A-Z_]{1,40}$/.test(value) ? (value as ErrorCode) : undefined;

function unwrapResult<T>(result: Result<T>): T {
  if (result.error !== undefined || result.data === undefined) {
    throw toApiError(result.error, result.response);
  }
  // An answer whose `success` is not true is an error too, whatever its status.
  const body = result.data as { success?: unknown };
  if (body && typeof body === 'object' && body.success === false) {
    throw toApiError(body, result.response);
  }
  return result.data;
}

/** An openapi-fetch result (or the promise of one): its data, or an `ApiError`. */
export function unwrap<T>(result: Result<T>): T;
export function unwrap<T>(result: Promise<Result<T>>): Promise<T>;
export function unwrap<T>(result: Result<T> | Promise<Result<T>>): T | Promise<T> {
  return result instanceof Promise ? result.then(unwrapResult) : unwrapResult(result);
}

/** The server's message, else the screen's own fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** The API's code of a failure, if it was an API error answer. */
export function errorCode(error: unknown): ErrorCode | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

// ---------------------------------------------------------------------------------------------
// The session

/** Reads a JWT's `exp` claim: a token that is malformed or past its expiry is not usable. */
export function isTokenUsable(token: string | null | undefined, now = Date.now()): boolean {
  if (!token) return false;
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  try {
    const json = atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    const payload = JSON.parse(json) as { exp?: unknown };
    return typeof payload.exp === 'number' && payload.exp * 1000 > now;
  } catch {
    return false;
  }
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export interface SessionState<U, A = unknown> {
  token: string | null;
  refreshToken: string | null;
  user: U | null;
  /** Starts a session from a sign-in answer; `user` is the API's user, kept as the app says. */
  signIn: (session: SessionTokens & { user: A }) => void;
  setTokens: (tokens: SessionTokens) => void;
  /** Replaces the kept user with (what the app keeps of) this one. */
  setUser: (user: A) => void;
  updateUser: (patch: Partial<U>) => void;
  signOut: () => void;
}

export type SessionStore<U, A = unknown> = StoreApi<SessionState<U, A>>;

export interface WebClientSettings<U, A> {
  /** Origin of the API, without `/api` (empty: the page's own origin). */
  apiUrl: string;
  /** What the app keeps of the API's user under `loggedInUser`. */
  toStoredUser: (user: A) => U;
  /** Whether a value read back from `loggedInUser` is a usable user. */
  isStoredUser: (value: unknown) => value is U;
  /** Keys the app writes beside the spec's three (e.g. `employee`), from the current user. */
  extraKeys?: (user: U | null) => Record<string, string | null>;
  storage?: Storage;
  fetch?: typeof fetch;
}

/** Calls that never trigger a refresh: their 401 means the credentials themselves are wrong. */
const NO_REFRESH = ['/api/auth/login', '/api/auth/refreshToken', '/api/auth/logout'];

type Renewal = { token: string } | { rejected: true } | { unreachable: true };

export interface WebClient<U, A> {
  session: SessionStore<U, A>;
  api: ApiClient;
  /** fetch with one silent refresh on a 401 of a signed-in call. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Renews the session's tokens (one renewal at a time); resolves when it is settled. */
  renew: () => Promise<Renewal>;
  /** The renewal started at load for a stored session whose access token expired, if any. */
  startup: Promise<void>;
}

export function createWebClient<U, A>(settings: WebClientSettings<U, A>): WebClient<U, A> {
  const storage = settings.storage ?? globalThis.localStorage;
  const fetchImpl = (...args: Parameters<typeof fetch>) => (settings.fetch ?? fetch)(...args);
  const apiBase = settings.apiUrl.replace(/\/$/, '');

  const readUser = (): U | null => {
    try {
      const raw = storage.getItem(STORAGE_KEYS.loggedInUser);
      const value: unknown = raw ? JSON.parse(raw) : null;
      return settings.isStoredUser(value) ? value : null;
    } catch {
      return null;
    }
  };
  const clearStorage = () => {
    for (const key of Object.values(STORAGE_KEYS)) storage.removeItem(key);
    for (const key of Object.keys(settings.extraKeys?.(null) ?? {})) storage.removeItem(key);
  };

  /**
   * The stored session, read once at load. An expired access token is not a dead session: while a
   * refresh token is stored the session is kept and renewed; one that cannot be renewed (no refresh
   * token, no readable user) is cleared.
   */
  const load = (): Pick<SessionState<U, A>, 'token' | 'refreshToken' | 'user'> => {
    const token = storage.getItem(STORAGE_KEYS.token);
    const refreshToken = storage.getItem(STORAGE_KEYS.refreshToken);
    const user = readUser();
    const empty = { token: null, refreshToken: null, user: null };
    if (token === null && refreshToken === null && user === null) return empty;
    if (!user || (!isTokenUsable(token) && !refreshToken)) {
      clearStorage();
      return empty;
    }
    return { token, refreshToken, user };
  };

  // Which session is current: a sign-in or a sign-out starts another, a renewal keeps the same.
  let generation = 0;
  const session = createStore<SessionState<U, A>>()((set) => ({
    ...load(),
    signIn: ({ accessToken, refreshToken, user }) => {
      generation++;
      set({ token: accessToken, refreshToken, user: settings.toStoredUser(user) });
    },
    setTokens: ({ accessToken, refreshToken }) => set({ token: accessToken, refreshToken }),
    setUser: (user) => set({ user: settings.toStoredUser(user) }),
    updateUser: (patch) => set((s) => (s.user ? { user: { ...s.user, ...patch } } : {})),
    signOut: () => {
      generation++;
      set({ token: null, refreshToken: null, user: null });
    },
  }));

  const write = (key: string, value: string | null) => {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  };
  session.subscribe((s) => {
    // Signed out: every key of the session goes, the spec's four and the app's own.
    if (!s.user && !s.token && !s.refreshToken) return clearStorage();
    write(STORAGE_KEYS.token, s.token);
    write(STORAGE_KEYS.refreshToken, s.refreshToken);
    write(STORAGE_KEYS.loggedInUser, s.user ? JSON.stringify(s.user) : null);
    for (const [key, value] of Object.entries(settings.extraKeys?.(s.user) ?? {}))
      write(key, value);
  });

  /** Ends the session of `made` (a generation), and only that one: a newer sign-in stays. */
  const endSession = (made: number) => {
    if (generation === made) session.getState().signOut();
  };

  let renewing: Promise<Renewal> | null = null;
  // The refresh token rotates and is single use: every caller shares one exchange.
  const renew = (): Promise<Renewal> => {
    renewing ??= (async (): Promise<Renewal> => {
      const refreshToken = session.getState().refreshToken;
      const made = generation;
      if (!refreshToken) return { rejected: true };
      try {
        const res = await fetchImpl(`${apiBase}/api/auth/refreshToken`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        });
        // 401: the refresh token is spent or revoked; 403: the account is deactivated.
        if (res.status === 401 || res.status === 403) return { rejected: true };
        if (!res.ok) return { unreachable: true };
        const body = (await res.json()) as { data?: SessionTokens };
        if (!body.data) return { unreachable: true };
        // Signed out or signed in anew meanwhile: this renewal is of a session that is gone.
        if (generation !== made) return { rejected: true };
        session.getState().setTokens(body.data);
        return { token: body.data.accessToken };
      } catch {
        return { unreachable: true };
      }
    })().finally(() => {
      renewing = null;
    });
    return renewing;
  };

  const fetchWithRefresh = async (
    input: RequestInfo | URL,
    init?: RequestInit,
  ): Promise<Response> => {
    const request = new Request(input, init);
    const retry = request.clone();
    const made = generation;
    const sentToken = session.getState().token;
    const response = await fetchImpl(request);
    const path = new URL(request.url).pathname;
    if (
      response.status !== 401 ||
      NO_REFRESH.includes(path) ||
      !request.headers.has('Authorization')
    ) {
      return response;
    }
    // Signed out or signed in anew while this request was out: its session is not the current one.
    if (generation !== made) return response;
    // Renewed meanwhile (by another request, or at load): retry with the new token.
    const current = session.getState().token;
    const renewal: Renewal = current && current !== sentToken ? { token: current } : await renew();
    if ('token' in renewal) {
      retry.headers.set('Authorization', `Bearer ${renewal.token}`);
      return fetchImpl(retry);
    }
    // Refused: the session is over. Unreachable: it may still be good; only this request failed.
    if ('rejected' in renewal) endSession(made);
    return response;
  };

  const api = createApiClient({
    baseUrl: settings.apiUrl,
    getAccessToken: () => session.getState().token,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetchWithRefresh(input, init),
  });

  const loaded = session.getState();
  const startup =
    loaded.refreshToken && !isTokenUsable(loaded.token)
      ? renew().then((renewal) => {
          if ('rejected' in renewal) endSession(0);
        })
      : Promise.resolve();

  return { session, api, fetch: fetchWithRefresh, renew, startup };
}
