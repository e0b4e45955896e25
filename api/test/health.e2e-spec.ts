import { createTestApp, serverUri, type TestApp } from './support/test-app';
import { TcpProxy } from './support/tcp-proxy';
import { waitFor } from './support/wait';

describe('GET /api/health', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    proxy = TcpProxy.forUri(serverUri());
    await proxy.start();
    t = await createTestApp({ name: 'health', serverUri: proxy.uri });
  });

  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await t?.close();
    await proxy.stop();
  });

  it('answers 200 with the database up', async () => {
    const res = await t.http().get('/api/health').expect(200);
    expect(res.body).toEqual({
      success: true,
      message: 'The API and its database are up',
      status: 'ok',
      db: 'up',
    });
  });

  it('answers 503 within seconds when the database goes away, and 200 again when it returns', async () => {
    await proxy.cut();
    const started = Date.now();
    const down = await t.http().get('/api/health');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ success: false, status: 'error', db: 'down' });

    await proxy.restore();
    const up = await waitFor(
      () => t.http().get('/api/health'),
      (res) => res.status === 200,
      // The driver notices the server is back on its next heartbeat; a loaded machine can be slow.
      60_000,
    );
    expect(up.status).toBe(200);
    expect(up.body.db).toBe('up');
  }, 90_000);
});
