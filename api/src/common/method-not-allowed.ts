import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A path the API serves under other methods answers 405 with an `Allow` header (HTTP's rule), not
 * 404 (nor 400 from an id check, when a named path such as `/api/orders/confirm-delivery` sits beside
 * `/api/orders/:id`). The routes are mirrored into a router of their own (find-my-way, Fastify's router) as they are
 * registered, so call this before the application's routes are. Wildcard routes (CORS preflight,
 * uploads) are left out: they would match every path.
 */
export function answerWrongMethodWith405(fastify: FastifyInstance): void {
  const routes = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 1000 });
  /** Paths without parameters, e.g. `/api/orders/confirm-delivery` beside `/api/orders/:id`. */
  const fixedPaths = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    if (!route.url.includes(':')) fixedPaths.add(route.url);
    for (const method of [route.method].flat()) {
      if (!routes.hasRoute(method as FindMyWay.HTTPMethod, route.url))
        routes.on(method as FindMyWay.HTTPMethod, route.url, () => undefined);
    }
  });
  fastify.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    // A named path that a parametric route of this method would otherwise take as an id.
    const shadowed =
      !request.is404 && request.routeOptions.url?.includes(':') && fixedPaths.has(path);
    if (!request.is404 && !shadowed) return;
    const allow = METHODS.filter((method) => {
      const found = routes.find(method, path) as { store?: unknown; params?: object } | null;
      return found && (!shadowed || Object.keys(found.params ?? {}).length === 0);
    });
    if (!allow.length) return;
    return reply
      .code(405)
      .header('allow', allow.join(', '))
      .send({
        success: false,
        statusCode: 405,
        message: `${request.method} is not allowed on ${path}; use ${allow.join(', ')}`,
        code: 'METHOD_NOT_ALLOWED',
      });
  });
}
