import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { helmetHeaders } from './security-headers';

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", "'unsafe-inline'"] },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
};

describe('helmetHeaders', () => {
  it('are the headers helmet itself sets on a real response', async () => {
    const middleware = helmet(OPTIONS);
    const server = createServer((req, res) => middleware(req, res, () => res.end('ok')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      const real: Record<string, string> = {};
      res.headers.forEach((value, name) => (real[name] = value));
      const computed = helmetHeaders(OPTIONS);
      expect(Object.keys(computed).length).toBeGreaterThan(8);
      for (const [name, value] of Object.entries(computed)) expect(real[name]).toBe(value);
      expect(computed['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
      expect(computed['x-content-type-options']).toBe('nosniff');
      expect(computed['cross-origin-resource-policy']).toBe('cross-origin');
    } finally {
      server.close();
    }
  });
});
