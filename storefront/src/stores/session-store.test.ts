import { STORAGE_KEYS } from '@spc/shared-contracts';
import { fakeJwt } from '../testing/render';
import { loadSession, useSessionStore } from './session-store';

const user = {
  _id: 'u1',
  fullName: 'Wanjiku Kamau',
  email: 'w@example.co.ke',
  role: 'customer' as const,
};

function store(token: string) {
  localStorage.setItem(STORAGE_KEYS.token, token);
  localStorage.setItem(STORAGE_KEYS.refreshToken, 'opaque-refresh');
  localStorage.setItem(STORAGE_KEYS.loggedInUser, JSON.stringify(user));
  localStorage.setItem(STORAGE_KEYS.employee, '{}');
}

beforeEach(() => localStorage.clear());

describe('session at load (spec §4)', () => {
  it('keeps a session whose token is still valid', () => {
    const token = fakeJwt(600);
    store(token);
    expect(loadSession()).toEqual({ token, refreshToken: 'opaque-refresh', user });
  });

  it('clears a session whose token has expired', () => {
    store(fakeJwt(-60));
    expect(loadSession()).toEqual({ token: null, refreshToken: null, user: null });
    for (const key of Object.values(STORAGE_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });

  it('clears a session whose token is not a JWT', () => {
    store('not-a-token');
    expect(loadSession().user).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.loggedInUser)).toBeNull();
  });

  it('clears a session whose stored user is not JSON', () => {
    store(fakeJwt(600));
    localStorage.setItem(STORAGE_KEYS.loggedInUser, '{broken');
    expect(loadSession().token).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

describe('session store', () => {
  it('stores the session under the spec keys and removes all four on sign-out', () => {
    useSessionStore.getState().signIn({ accessToken: 'a.b.c', refreshToken: 'r', user });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('a.b.c');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.loggedInUser)!)).toMatchObject({
      _id: 'u1',
      role: 'customer',
      isAdmin: false,
    });
    localStorage.setItem(STORAGE_KEYS.employee, '{}');
    useSessionStore.getState().signOut();
    for (const key of Object.values(STORAGE_KEYS)) expect(localStorage.getItem(key)).toBeNull();
    expect(useSessionStore.getState().user).toBeNull();
  });
});
