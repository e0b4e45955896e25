import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** Sign-in, sign-up, token and password bodies: a few short fields. */
export const AUTH_BODY_LIMIT_BYTES = 8 * 1024;
/** An order: at most 50 lines with the cart fields a client sends along, and the delivery details. */
export const ORDER_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The largest JSON body this route reads, in bytes, below the API-wide limit: a larger body is
 * refused with 413 while it is being received, before it is parsed or validated.
 */
export const BodyLimit = (bytes: number) => RouteConfig({ bodyLimit: bytes });

/** Applies each route's `@BodyLimit`; call before the application's routes are registered. */
export function applyRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
}
