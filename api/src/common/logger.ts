import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

/** pino-pretty is a development tool: the production image does not install it. */
function prettyAvailable(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** One pino instance for Fastify's request logs and Nest's own messages (JSON lines unless pretty). */
export function createRootLogger(config: AppConfig): Logger {
  return pino({
    level: config.log.level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    transport:
      config.log.pretty && prettyAvailable()
        ? {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
          }
        : undefined,
  });
}

/** Adapts pino to Nest's LoggerService so bootstrap and module messages share the JSON stream. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
