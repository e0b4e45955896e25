import { createTestApp, serverUri, type TestApp } from './support/test-app';
import { TcpProxy } from './support/tcp-proxy';
import { waitFor } from './support/wait';

const UNAVAILABLE =
  'The service is temporarily unavailable (database unreachable). Please try again shortly.';

describe('requests while the database is away', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    proxy = TcpProxy.forUri(serverUri());
    await proxy.start();
    t = await createTestApp({ name: 'dbloss', serverUri: proxy.uri });
  });

  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await t?.close();
    await proxy.stop();
  });

  it('fail fast with 503 and a clear message, and succeed again when it returns, without a restart', async () => {
    const track = () => t.http().get('/api/orders/track/new-order?purchaseNumber=SPD22222222');
    const login = () =>
      t
        .http()
        .post('/api/auth/login')
        .send({ email: 'nobody@example.co.ke', password: 'x1234567' });
    expect((await track()).status).toBe(404);

    await proxy.cut();
    // Once the driver knows the server is gone (health says so), each query fails as soon as no
    // server can be chosen.
    const health = await waitFor(
      () => t.http().get('/api/health'),
      (res) => res.status === 503,
      15_000,
    );
    expect(health.status).toBe(503);
    for (const send of [track, login]) {
      const started = Date.now();
      const res = await send();
      const took = Date.now() - started;
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, statusCode: 503, message: UNAVAILABLE });
      // The driver now gives up choosing a server after 2.5 s (it was 5 s, and mongoose's queue could
      // hold a query 10 s); 2 s of slack for a loaded machine.
      expect(took).toBeLessThan(4500);
    }

    await proxy.restore();
    const back = await waitFor(track, (res) => res.status !== 503, 60_000);
    expect(back.status).toBe(404);
    expect((await login()).status).toBe(401);
  }, 120_000);
});
