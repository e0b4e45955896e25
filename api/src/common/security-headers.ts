import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers as response headers, worked out once. @fastify/helmet builds helmet's middleware
 * anew on every request (parsing the Content-Security-Policy directives each time: 6% of the API's
 * CPU under load on the product list, the largest single cost after the socket writes). Helmet's
 * headers depend only on its options (no directive here is a per-request function or nonce), so its
 * middleware runs once against a recording response and every reply gets what it set.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, recorder, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Sets helmet's headers (computed once from `options`) on every reply. */
export function addSecurityHeaders(fastify: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
