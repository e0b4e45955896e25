import { useStore } from 'zustand';
import type { SessionState } from '@spc/shared-contracts/web-client';
import { webClient, type SessionUser } from '../lib/api-client';

export type { SessionUser } from '../lib/api-client';

/** The session of the shared web client, as a React hook (with the store's getState/setState). */
export const useSessionStore = Object.assign(
  <T>(selector: (state: SessionState<SessionUser, SessionUser>) => T): T =>
    useStore(webClient.session, selector),
  webClient.session,
);

export const useSessionUser = () => useSessionStore((s) => s.user);
export const useIsSignedIn = () => useSessionStore((s) => s.user !== null && s.token !== null);
