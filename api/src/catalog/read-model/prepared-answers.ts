import type { FastifyInstance } from 'fastify';
import { JSON_CONTENT_TYPE } from '../../common/answer';
import { isObjectId } from '../../common/parse-object-id.pipe';
import type { CatalogReadModel } from './catalog-read-model';

/**
 * Answers GET requests for product lists and product pages the read model already holds as bytes,
 * in a `preHandler` hook: after the `onRequest` hooks (request id, security headers, CORS) and
 * before Nest's guards, pipes and handler, which could not change that answer and were most of the
 * CPU time of the hottest reads. The answer carries every header the handler's would, and the access
 * log records it as any other. A request the read model has nothing ready for goes on to its handler
 * (which validates it first: a URL never answered 200 is never answered here).
 */
export function servePreparedAnswers(fastify: FastifyInstance, readModel: CatalogReadModel): void {
  const byRoute = new Map<string, (params: unknown, url: string) => Buffer | undefined>([
    ['/api/products', (_params, url) => readModel.preparedList(url)],
    [
      '/api/products/:id',
      (params) => {
        const { id } = params as { id?: string };
        // Only ids as the handler would read them (it lower-cases); anything else goes to it.
        return isObjectId(id) && id === id.toLowerCase()
          ? readModel.preparedProduct(id)
          : undefined;
      },
    ],
  ]);
  fastify.addHook('preHandler', (request, reply, done) => {
    const lookup =
      request.method === 'GET' ? byRoute.get(request.routeOptions.url ?? '') : undefined;
    const text = lookup?.(request.params, request.url);
    if (text) {
      void reply.type(JSON_CONTENT_TYPE).send(text);
      return;
    }
    done();
  });
}
