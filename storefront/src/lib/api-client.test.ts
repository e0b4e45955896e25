import { useSessionStore } from '../stores/session-store';
import { mockFetch } from '../testing/render';
import { api, unwrap } from './api-client';

const user = { _id: 'u1', fullName: 'W K', email: 'w@k.co', role: 'customer' as const };

beforeEach(() => {
  localStorage.clear();
  useSessionStore.getState().signIn({ accessToken: 'old.token.x', refreshToken: 'r1', user });
});

describe('api client', () => {
  it('refreshes once on a 401 and retries with the new token', async () => {
    const { calls } = mockFetch({
      '/api/users/profile': (req) =>
        req.headers.get('Authorization') === 'Bearer new.token.y'
          ? { body: { success: true, message: 'ok', user } }
          : { status: 401, body: { message: 'Unauthorized' } },
      '/api/auth/refreshToken': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { accessToken: 'new.token.y', refreshToken: 'r2', user },
        },
      }),
    });
    const res = await unwrap(api.GET('/api/users/profile'));
    expect(res.user.fullName).toBe('W K');
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual([
      '/api/users/profile',
      '/api/auth/refreshToken',
      '/api/users/profile',
    ]);
    expect(localStorage.getItem('refreshToken')).toBe('r2');
  });

  it('signs out when the refresh is refused, and shows the server message', async () => {
    mockFetch({
      '/api/users/profile': () => ({ status: 401, body: { message: 'Your session has expired' } }),
      '/api/auth/refreshToken': () => ({ status: 401, body: { message: 'Refresh token reused' } }),
    });
    await expect(unwrap(api.GET('/api/users/profile'))).rejects.toThrow('Your session has expired');
    expect(useSessionStore.getState().user).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
