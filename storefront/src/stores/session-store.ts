import { STORAGE_KEYS } from '@spc/shared-contracts';
import { create } from 'zustand';
import { isTokenUsable } from '../lib/jwt';
import type { User } from '../lib/types';

/** The signed-in user as stored under `loggedInUser` (role and _id are what the app reads). */
export type SessionUser = Pick<User, '_id' | 'fullName' | 'email' | 'role'> &
  Partial<Pick<User, 'phoneNumber' | 'county' | 'streetAddress' | 'profilePicture'>> & {
    isAdmin?: boolean;
  };

interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: SessionUser | null;
  signIn: (session: { accessToken: string; refreshToken: string; user: SessionUser }) => void;
  setTokens: (tokens: { accessToken: string; refreshToken: string }) => void;
  setUser: (user: SessionUser) => void;
  signOut: () => void;
}

function readUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.loggedInUser);
    const user = raw ? (JSON.parse(raw) as SessionUser) : null;
    return user && typeof user._id === 'string' && typeof user.role === 'string' ? user : null;
  } catch {
    return null;
  }
}

function clearStorage() {
  for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
}

/**
 * Reads the stored session once at load. A token that has expired or is not a JWT clears the whole
 * session (spec §4: token and loggedInUser removed, a logout applied).
 */
export function loadSession(): Pick<SessionState, 'token' | 'refreshToken' | 'user'> {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  const refreshToken = localStorage.getItem(STORAGE_KEYS.refreshToken);
  const user = readUser();
  if (token === null && refreshToken === null && user === null) {
    return { token: null, refreshToken: null, user: null };
  }
  if (!isTokenUsable(token) || !user) {
    clearStorage();
    return { token: null, refreshToken: null, user: null };
  }
  return { token, refreshToken, user };
}

function toStoredUser(user: SessionUser): SessionUser {
  return { ...user, isAdmin: user.role === 'admin' };
}

export const useSessionStore = create<SessionState>()((set) => ({
  ...loadSession(),
  signIn: ({ accessToken, refreshToken, user }) => {
    const stored = toStoredUser(user);
    localStorage.setItem(STORAGE_KEYS.token, accessToken);
    localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
    localStorage.setItem(STORAGE_KEYS.loggedInUser, JSON.stringify(stored));
    set({ token: accessToken, refreshToken, user: stored });
  },
  setTokens: ({ accessToken, refreshToken }) => {
    localStorage.setItem(STORAGE_KEYS.token, accessToken);
    localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
    set({ token: accessToken, refreshToken });
  },
  setUser: (user) => {
    const stored = toStoredUser(user);
    localStorage.setItem(STORAGE_KEYS.loggedInUser, JSON.stringify(stored));
    set({ user: stored });
  },
  signOut: () => {
    clearStorage();
    set({ token: null, refreshToken: null, user: null });
  },
}));

export const useSessionUser = () => useSessionStore((s) => s.user);
export const useIsSignedIn = () => useSessionStore((s) => s.user !== null && s.token !== null);
