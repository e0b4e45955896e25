import { STORAGE_KEYS } from '@spc/shared-contracts';
import { useSessionStore } from './session-store';

const user = {
  _id: 'u1',
  fullName: 'Wanjiku Kamau',
  email: 'w@example.co.ke',
  role: 'customer' as const,
};

beforeEach(() => localStorage.clear());

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
