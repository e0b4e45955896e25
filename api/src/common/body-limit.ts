import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** Sign-in, sign-up, token and password bodies: a few short fields. */
export const AUTH_BODY_LIMIT_BYTES = 8 * 1024;
/** An order: at most 50 lines with the cart fields a client sends along, and the delivery details. */
export const ORDER_BODY_LIMIT_BYTES = 64 * 1024;
/**
 * The privacy notice's settings: a notice of 20,000 characters may take 12 bytes each when a client
 * sends characters outside the Basic Multilingual Plane as JSON escapes (a surrogate pair).
 */
export const PRIVACY_SETTINGS_BODY_LIMIT_BYTES = 256 * 1024;
/** A contact message: four fields, the longest 5,000 characters (up to 4 bytes each in UTF-8). */
export const CONTACT_BODY_LIMIT_BYTES = 32 * 1024;

interface BodyShapeConfig {
  bodyLimit?: unknown;
  bodyValues?: unknown;
}

/**
 * The largest JSON body this route reads, in bytes (the API-wide limit unless it says): a larger body is
 * refused with 413 while it is being received, before it is parsed or validated. `values` bounds its
 * array items and object fields in all, below the API-wide MAX_JSON_VALUES (common/json-shape.ts),
 * counted before it is parsed.
 */
export const BodyLimit = (bytes: number, shape: { values?: number } = {}) =>
  RouteConfig({ bodyLimit: bytes, ...(shape.values ? { bodyValues: shape.values } : {}) });

/** The values a route's `@BodyLimit` allows, if it says. */
export function routeBodyValues(config: unknown): number | undefined {
  const values = (config as BodyShapeConfig | undefined)?.bodyValues;
  return typeof values === 'number' ? values : undefined;
}

/** Applies each route's `@BodyLimit`; call before the application's routes are registered. */
export function applyRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as BodyShapeConfig | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
}
