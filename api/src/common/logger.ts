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

/**
 * The routes whose path carries a gateway's callback token: every URL the shop gives Daraja (the
 * STK callback; C2B validation and confirmation; the results of status queries, reversals and B2C
 * payments, and their timeouts) and the SMS gateway's incoming-messages callback. The logs show
 * `[redacted]` in place of `:token`. A new route with a secret in its path belongs here;
 * access-log.spec checks that every `{token}` path of the OpenAPI document is covered.
 */
const ROUTES_WITH_A_SECRET = [
  '/api/payments/mpesa/callback/:token',
  '/api/payments/mpesa/c2b/validation/:token',
  '/api/payments/mpesa/c2b/confirmation/:token',
  '/api/payments/mpesa/result/:kind/:token',
  '/api/sms/inbound/:token',
] as const;

/**
 * The `:token` segment of any of those paths, whatever the other parameters' values, in any case and
 * with doubled slashes (a mistyped URL is answered 404, and logged, with the token in it all the same).
 */
const SECRET_SEGMENT = ROUTES_WITH_A_SECRET.map((route) => {
  const before = route
    .replace(/:token$/, '')
    .replace(/\//g, '/+')
    .replace(/:\w+/g, '[^/?#]+');
  return `(?<=${before})[^/?#]+`;
}).join('|');
const SECRET_SEGMENTS = new RegExp(SECRET_SEGMENT, 'gi');

/** What any URL `redactUrl` changes contains (a superset of its patterns). */
const MAY_HOLD_SECRET = new RegExp(
  `${SECRET_SEGMENT}|password|[?&](?:token|code|key|refreshToken|signature|phone\\w*|email|search|q)=|@|%40|\\d{9}`,
  'i',
);
/** The catalogue's routes, whose searches name plants, not people. */
const CATALOGUE_PATH = /^\/api\/(?:products|categories)(?:[/?]|$)/i;

/** A phone number (Kenyan or international) or an e-mail address anywhere in a URL. */
const PERSONAL =
  /[^/?&=#]*(?:@|%40)[^/?&=#]*|(?<=[/=])(?:\+|%2B)?(?:254|0)?[17]\d{8}(?=$|[/?&#])/gi;

/**
 * A URL as the logs show it: the M-Pesa and SMS callback tokens (in the path of each route listed
 * above), a reset code in a path and the values of query parameters that carry secrets (a signed
 * document link's `signature`, which opens a receipt for 30 days, among them) are replaced by
 * `[redacted]`;
 * phone numbers and e-mail addresses (in a path, a search, a `phone` or `email` field) (personal
 * data: the logs keep none) by `[personal]`.
 */
export function redactUrl(url: string | undefined): string | undefined {
  // One scan for the common case (nothing secret), instead of several replacements per request.
  if (url === undefined || !MAY_HOLD_SECRET.test(url)) return url;
  return (
    url
      .replace(SECRET_SEGMENTS, '[redacted]')
      .replace(/(\/reset-?password\/)[^/?#]+/gi, '$1[redacted]')
      .replace(/([?&](?:token|code|key|password|refreshToken|signature)=)[^&#]*/gi, '$1[redacted]')
      .replace(/([?&](?:phone\w*|email)=)[^&#]*/gi, '$1[personal]')
      // A search of people (orders, customers, the trail…) is a name, a phone as the shop writes
      // it ("0712 345 678") or an e-mail; a search of the catalogue is a plant's name, kept.
      .replace(/([?&](?:search|q)=)[^&#]*/gi, (whole, key: string) =>
        CATALOGUE_PATH.test(url) ? whole : `${key}[personal]`,
      )
      .replace(PERSONAL, '[personal]')
  );
}

/** Fastify's request summary, with the URL redacted. */
function serializeRequest(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** One pino instance for Fastify's request logs and Nest's own messages (JSON lines unless pretty). */
export function createRootLogger(config: AppConfig): Logger {
  return pino({
    level: config.log.level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: { req: serializeRequest },
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
