import type { FastifyInstance } from 'fastify';
import { SMS_INBOUND_PATH } from './sms-inbound.controller';

/** The routes that take form fields (gateway callbacks); every other route keeps refusing them. */
const FORM_ROUTES = new Set([SMS_INBOUND_PATH]);
const MAX_FORM_BYTES = 8 * 1024;

/**
 * Reads `application/x-www-form-urlencoded` bodies, as Africa's Talking posts its incoming-message
 * callback, on the routes that take them only (415 elsewhere, as before). A repeated field keeps
 * its first value.
 */
export function readFormBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (request, body, done) => {
      if (!FORM_ROUTES.has(request.routeOptions.url ?? '')) {
        const error = Object.assign(
          new Error(`Unsupported Media Type: ${request.headers['content-type']}`),
          {
            statusCode: 415,
          },
        );
        return done(error, undefined);
      }
      const fields: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(String(body)))
        if (!(key in fields)) fields[key] = value;
      done(null, fields);
    },
  );
}
