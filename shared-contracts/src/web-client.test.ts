import { STORAGE_KEYS } from './constants';
import { ApiError, createWebClient, unwrap } from './web-client';

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

interface User {
  _id: string;
  role: string;
}
const user: User = { _id: 'u1', role: 'customer' };

function jwt(secondsFromNow: number) {
  const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const exp = Math.floor(Date.now() / 1000) + secondsFromNow;
  return `${b64({ alg: 'HS256' })}.${b64({ sub: 'u1', exp })}.sig`;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function setup(
  stored: { token?: string; refreshToken?: string; user?: string | null },
  fetch: jest.Mock,
) {
  const storage = new MemoryStorage();
  if (stored.token) storage.setItem(STORAGE_KEYS.token, stored.token);
  if (stored.refreshToken) storage.setItem(STORAGE_KEYS.refreshToken, stored.refreshToken);
  if (stored.user !== null)
    storage.setItem(STORAGE_KEYS.loggedInUser, stored.user ?? JSON.stringify(user));
  const client = createWebClient<User, User>({
    apiUrl: 'http://api.test',
    toStoredUser: (u) => ({ _id: u._id, role: u.role }),
    isStoredUser: (v): v is User => typeof (v as User | null)?._id === 'string',
    extraKeys: (u) => ({ [STORAGE_KEYS.employee]: u && u.role !== 'customer' ? '{}' : null }),
    storage,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
  return { client, storage };
}

const pathOf = (call: unknown[]) =>
  new URL(call[0] instanceof Request ? call[0].url : String(call[0])).pathname;

describe('the stored session at load', () => {
  it('keeps a session whose access token is still valid, without calling the API', async () => {
    const fetch = jest.fn();
    const token = jwt(600);
    const { client } = setup({ token, refreshToken: 'r1' }, fetch);
    await client.startup;
    expect(client.session.getState()).toMatchObject({ token, refreshToken: 'r1', user });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('renews, not clears, a session whose access token expired but whose refresh token is valid', async () => {
    const fresh = jwt(900);
    const fetch = jest.fn(async () =>
      json(200, {
        success: true,
        message: 'Session refreshed',
        data: { accessToken: fresh, refreshToken: 'r2', user },
      }),
    );
    const { client, storage } = setup({ token: jwt(-60), refreshToken: 'r1' }, fetch);
    expect(client.session.getState().user).toEqual(user);
    await client.startup;
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(client.session.getState()).toMatchObject({ token: fresh, refreshToken: 'r2', user });
    expect(storage.getItem(STORAGE_KEYS.token)).toBe(fresh);
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBe('r2');
  });

  it('clears a session that cannot be renewed: the refresh token is refused', async () => {
    const fetch = jest.fn(async () =>
      json(401, {
        success: false,
        message: 'Your session has expired.',
        statusCode: 401,
        code: 'SESSION_EXPIRED',
      }),
    );
    const { client, storage } = setup({ token: jwt(-60), refreshToken: 'spent' }, fetch);
    await client.startup;
    expect(client.session.getState()).toMatchObject({
      token: null,
      refreshToken: null,
      user: null,
    });
    for (const key of Object.values(STORAGE_KEYS)) expect(storage.getItem(key)).toBeNull();
  });

  it('keeps the session when the API cannot be reached (it may still be renewed later)', async () => {
    const fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { client } = setup({ token: jwt(-60), refreshToken: 'r1' }, fetch);
    await client.startup;
    expect(client.session.getState().refreshToken).toBe('r1');
  });

  it('clears a session with no refresh token and an expired access token, or no readable user', async () => {
    const fetch = jest.fn();
    const expired = setup({ token: jwt(-60) }, fetch);
    expect(expired.client.session.getState().user).toBeNull();
    expect(expired.storage.getItem(STORAGE_KEYS.loggedInUser)).toBeNull();
    const broken = setup({ token: jwt(600), refreshToken: 'r1', user: '{broken' }, fetch);
    expect(broken.client.session.getState().token).toBeNull();
    expect(broken.storage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('refresh on 401', () => {
  it('shares one refresh among concurrent 401s and retries each with the new token', async () => {
    let refreshes = 0;
    const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === '/api/auth/refreshToken') {
        refreshes++;
        await new Promise((r) => setTimeout(r, 10));
        return json(200, {
          success: true,
          message: 'ok',
          data: { accessToken: 'new', refreshToken: 'r2' },
        });
      }
      return request.headers.get('Authorization') === 'Bearer new'
        ? json(200, { success: true, message: 'ok', orders: [] })
        : json(401, { success: false, message: 'expired', statusCode: 401, code: 'TOKEN_EXPIRED' });
    });
    const { client } = setup({ token: jwt(600), refreshToken: 'r1' }, fetch);
    const answers = await Promise.all([
      client.api.GET('/api/orders/user'),
      client.api.GET('/api/orders/user'),
      client.api.GET('/api/users/profile'),
    ]);
    expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200]);
    expect(refreshes).toBe(1);
  });

  it('ends only the session the request was made in', async () => {
    const fetch = jest.fn();
    const { client } = setup({ token: jwt(600), refreshToken: 'r1' }, fetch);
    fetch
      .mockImplementationOnce(async () => {
        // While this request is out, someone else signs in on this browser.
        client.session.getState().signIn({
          accessToken: 'other',
          refreshToken: 'r-other',
          user: { _id: 'u2', role: 'staff' },
        });
        return json(401, { success: false, message: 'expired', statusCode: 401 });
      })
      .mockResolvedValueOnce(json(401, { success: false, message: 'revoked', statusCode: 401 }));
    await client.api.GET('/api/orders/user');
    expect(client.session.getState()).toMatchObject({ token: 'other', user: { _id: 'u2' } });
    expect(fetch.mock.calls.map(pathOf)).toEqual(['/api/orders/user']);
  });

  it('does not refresh after a failed sign-in', async () => {
    const fetch = jest.fn(async () =>
      json(401, { success: false, message: 'Invalid email or password', statusCode: 401 }),
    );
    const { client } = setup({ token: jwt(600), refreshToken: 'r1' }, fetch);
    await client.api.POST('/api/auth/login', { body: { email: 'a@b.co', password: 'x' } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('unwrap', () => {
  it('gives the data, or an ApiError with the message, the status and the code', async () => {
    const ok = {
      data: { success: true, message: 'ok', n: 1 },
      response: new Response(null, { status: 200 }),
    };
    expect(unwrap(ok).n).toBe(1);
    const failed = Promise.resolve({
      error: { success: false, message: 'Only 2 left', statusCode: 409, code: 'OUT_OF_STOCK' },
      response: new Response(null, { status: 409 }),
    });
    const error = await unwrap(failed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Only 2 left', status: 409, code: 'OUT_OF_STOCK' });
  });
});
