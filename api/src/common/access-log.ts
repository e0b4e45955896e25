import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from './logger';

/**
 * The access log: one line per request, written once the answer has gone, with the request id
 * (`reqId`), method, URL as asked, route, status and time taken in ms. Fastify's default writes two
 * lines a request (incoming, completed) with the client's address and port; under load that was 4%
 * of the API's CPU on the product list. Fastify's other log lines (errors, route not found) are kept.
 * The URL is redacted as everywhere in the logs, in the "route not found" line too: the M-Pesa
 * callback's token and reset codes never reach them.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      route: request.routeOptions.url ?? null,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.raw.method}:${redactUrl(request.raw.url)} not found`);
  }
}
