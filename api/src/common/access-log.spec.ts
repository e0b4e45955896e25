import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { AccessLog } from './access-log';

describe('AccessLog', () => {
  it('writes one line per request with its id, method, URL, route, status and time', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = Fastify({ loggerInstance: pino(stream), logController: new AccessLog() });
    app.get('/api/products/:id', async () => ({ ok: true }));
    await app.ready();
    try {
      await app.inject({ url: '/api/products/abc?x=1' });
      await app.inject({ url: '/nowhere' });
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests).toHaveLength(2);
      expect(requests.every((l) => typeof l.reqId === 'string')).toBe(true);
      const [first] = requests;
      expect(first).toMatchObject({
        msg: 'request',
        method: 'GET',
        url: '/api/products/abc?x=1',
        route: '/api/products/:id',
        statusCode: 200,
      });
      expect(typeof first!.responseTime).toBe('number');
      expect(requests.find((l) => l.url === '/nowhere' && l.msg === 'request')).toMatchObject({
        statusCode: 404,
      });
      expect(lines.filter((l) => l.msg === 'incoming request')).toHaveLength(0);
    } finally {
      await app.close();
    }
  });
});
