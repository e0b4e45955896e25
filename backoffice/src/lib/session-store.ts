import type { Role } from '@spc/shared-contracts';
import type { SessionState } from '@spc/shared-contracts/web-client';
import { useStore } from 'zustand';
import { webClient, type LoggedInUser, type SessionUser } from './api-client';

/** The session of the shared web client, as a React hook (with the store's getState/setState). */
export const useSessionStore = Object.assign(
  <T>(selector: (state: SessionState<LoggedInUser, SessionUser>) => T): T =>
    useStore(webClient.session, selector),
  webClient.session,
);

export const useSessionUser = () => useSessionStore((s) => s.user);
export const useSessionRole = () => useSessionStore((s) => s.user?.role as Role | undefined);
/** A user counts as signed in with a stored user and a token or a refresh token. */
export const useIsSignedIn = () =>
  useSessionStore((s) => Boolean(s.user && (s.token || s.refreshToken)));
