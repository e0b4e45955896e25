import type { FastifyInstance } from 'fastify';

/**
 * The access log: one line per request, written once the answer has gone, with the request id,
 * method, URL as asked, route, status and time taken in ms (Fastify's own logging writes two lines a
 * request, which the application turns off). Errors are logged on their own by the exception filter.
 */
export function logEachRequest(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        route: request.routeOptions.url ?? null,
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
