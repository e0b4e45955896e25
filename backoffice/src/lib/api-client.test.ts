import { useSessionStore } from './session-store';
import { api } from './api-client';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('API client session refresh', () => {
  let fetchMock: jest.SpyInstance;
  beforeEach(() => {
    useSessionStore.setState({
      token: 'expired',
      refreshToken: 'refresh-1',
      user: {
        _id: 'u1',
        fullName: 'Grace Njeri',
        email: 'staff@spc.local',
        phoneNumber: '0711000222',
        role: 'staff',
        isAdmin: false,
      },
    });
    fetchMock = jest.spyOn(global, 'fetch');
  });
  afterEach(() => fetchMock.mockRestore());

  it('refreshes once on a 401, stores the new pair and retries with the new token', async () => {
    fetchMock
      .mockResolvedValueOnce(
        json(401, { success: false, message: 'Token expired', statusCode: 401 }),
      )
      .mockResolvedValueOnce(
        json(200, {
          success: true,
          message: 'ok',
          data: { accessToken: 'fresh', refreshToken: 'refresh-2' },
        }),
      )
      .mockResolvedValueOnce(json(200, { success: true, message: 'Categories', categories: [] }));
    const { data } = await api.GET('/api/categories');
    expect(data?.message).toBe('Categories');
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const [, refreshUrl, refreshInit] = [null, ...fetchMock.mock.calls[1]!];
    expect(String(refreshUrl)).toMatch(/\/api\/auth\/refreshToken$/);
    expect(JSON.parse((refreshInit as RequestInit).body as string)).toEqual({
      refreshToken: 'refresh-1',
    });
    const retried = fetchMock.mock.calls[2]![0] as Request;
    expect(retried.headers.get('Authorization')).toBe('Bearer fresh');
    expect(localStorage.getItem('token')).toBe('fresh');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
  });

  it('ends the session when the refresh is refused', async () => {
    fetchMock
      .mockResolvedValueOnce(
        json(401, { success: false, message: 'Token expired', statusCode: 401 }),
      )
      .mockResolvedValueOnce(
        json(401, { success: false, message: 'Refresh token revoked', statusCode: 401 }),
      );
    const { error } = await api.GET('/api/categories');
    expect(error).toBeDefined();
    expect(useSessionStore.getState().user).toBeNull();
    expect(localStorage.getItem('loggedInUser')).toBeNull();
  });

  it('does not end a newer session when a request of the old one fails late', async () => {
    const user = {
      ...useSessionStore.getState().user!,
      isActive: true,
      county: 'Kiambu',
      streetAddress: 'Ruiru',
      profilePicture: '',
      smsNotifications: true,
      kraPin: null,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    fetchMock
      .mockImplementationOnce(async () => {
        // While this request is out, the user signs in again.
        useSessionStore
          .getState()
          .signIn({ accessToken: 'new-access', refreshToken: 'refresh-new', user });
        return json(401, { success: false, message: 'Token expired', statusCode: 401 });
      })
      .mockResolvedValueOnce(
        json(401, { success: false, message: 'Refresh token revoked', statusCode: 401 }),
      );
    await api.GET('/api/categories');
    expect(useSessionStore.getState().user?.fullName).toBe('Grace Njeri');
    expect(localStorage.getItem('token')).toBe('new-access');
  });

  it('does not try to refresh a failed sign-in', async () => {
    fetchMock.mockResolvedValueOnce(
      json(401, { success: false, message: 'Invalid email or password', statusCode: 401 }),
    );
    await api.POST('/api/auth/login', { body: { email: 'a@b.co', password: 'x' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
