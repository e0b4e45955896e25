import { STORAGE_KEYS, type Role, type components } from '@spc/shared-contracts';
import { create } from 'zustand';

export type SessionUser = components['schemas']['UserDto'];

/** What is kept of the signed-in user under `loggedInUser` (spec §3: role, _id, isAdmin). */
export interface LoggedInUser {
  _id: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  role: Role;
  isAdmin: boolean;
}

interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: LoggedInUser | null;
  signIn: (session: { accessToken: string; refreshToken: string; user: SessionUser }) => void;
  setTokens: (tokens: { accessToken: string; refreshToken: string }) => void;
  updateUser: (user: Partial<LoggedInUser>) => void;
  signOut: () => void;
}

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function toLoggedInUser(user: SessionUser): LoggedInUser {
  return {
    _id: user._id,
    fullName: user.fullName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    role: user.role as Role,
    isAdmin: user.role === 'admin',
  };
}

/**
 * The session, persisted under the spec's four keys (token, refreshToken, loggedInUser, employee) so
 * both apps and older tabs read the same storage.
 */
export const useSessionStore = create<SessionState>()((set) => ({
  token: localStorage.getItem(STORAGE_KEYS.token),
  refreshToken: localStorage.getItem(STORAGE_KEYS.refreshToken),
  user: readJson<LoggedInUser>(STORAGE_KEYS.loggedInUser),
  signIn: ({ accessToken, refreshToken, user }) =>
    set({ token: accessToken, refreshToken, user: toLoggedInUser(user) }),
  setTokens: ({ accessToken, refreshToken }) => set({ token: accessToken, refreshToken }),
  updateUser: (patch) => set((s) => (s.user ? { user: { ...s.user, ...patch } } : {})),
  signOut: () => set({ token: null, refreshToken: null, user: null }),
}));

function write(key: string, value: string | null) {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

useSessionStore.subscribe((s) => {
  write(STORAGE_KEYS.token, s.token);
  write(STORAGE_KEYS.refreshToken, s.refreshToken);
  write(STORAGE_KEYS.loggedInUser, s.user ? JSON.stringify(s.user) : null);
  write(
    STORAGE_KEYS.employee,
    s.user && s.user.role !== 'customer' ? JSON.stringify(s.user) : null,
  );
});

export const useSessionUser = () => useSessionStore((s) => s.user);
export const useSessionRole = () => useSessionStore((s) => s.user?.role);
/** A user counts as signed in with a stored user and a token or a refresh token (spec §5). */
export const useIsSignedIn = () =>
  useSessionStore((s) => Boolean(s.user && (s.token || s.refreshToken)));
