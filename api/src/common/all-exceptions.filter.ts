import {
  ArgumentsHost,
  Catch,
  HttpException,
  HttpStatus,
  type ExceptionFilter,
} from '@nestjs/common';
import { errorCodeForStatus, isErrorCode, type ErrorCode } from '@spc/shared-contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactUrl } from './logger';

/**
 * The error envelope every failure is answered with: `success: false`, the English `message`, the
 * HTTP `statusCode`, a stable machine-readable `code` (shared-contracts' ERROR_CODES), and
 * optionally the field `errors` and the `requestId` to quote.
 */
export interface ErrorBody {
  success: false;
  message: string;
  statusCode: number;
  code: ErrorCode;
  errors?: unknown;
  /** Field errors beyond the listed ones (the list is capped). */
  moreErrors?: number;
  requestId?: string;
}

// A connection that did not open or answer in time (MongoNetworkTimeoutError: the server is
// overloaded or away) is the database unreachable too. The last: the database closed its end while
// a command was being written (it is stopping).
const DATABASE_DOWN =
  /MongoServerSelectionError|MongoNetworkError|MongoNetworkTimeoutError|MongoNotConnectedError|MongooseServerSelectionError|MongoPoolClearedError|MongoTopologyClosedError|Topology is closed|buffering timed out|This socket has been ended by the other party/;

/**
 * Turns every error into `{ success: false, message, statusCode, code, errors? }` and hides
 * internals. An exception names its code as `new ConflictException({ message, code })`; one that
 * names none gets the code of its HTTP status.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const body = this.toBody(exception, request?.id);
    // Every 429 says when to come back.
    if (body.statusCode === HttpStatus.TOO_MANY_REQUESTS) {
      const retry = (exception as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      void reply.header('retry-after', typeof retry === 'number' ? Math.ceil(retry) : 60);
    }
    if (body.statusCode >= 500 && body.statusCode !== HttpStatus.SERVICE_UNAVAILABLE) {
      this.logger.error(
        {
          err: exception,
          requestId: request?.id,
          method: request?.method,
          url: redactUrl(request?.url),
        },
        'Unexpected error',
      );
    }
    void reply.status(body.statusCode).send(body);
  }

  private toBody(exception: unknown, requestId?: string): ErrorBody {
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const response = exception.getResponse();
      const byStatus = errorCodeForStatus(statusCode);
      if (typeof response === 'string')
        return { success: false, message: response, statusCode, code: byStatus };
      const { message, errors, moreErrors, code } = response as {
        message?: unknown;
        errors?: unknown;
        moreErrors?: number;
        code?: unknown;
      };
      const text = Array.isArray(message)
        ? message.join('; ')
        : String(message ?? exception.message);
      return {
        success: false,
        message: text,
        statusCode,
        code: isErrorCode(code) ? code : byStatus,
        ...(errors ? { errors } : {}),
        ...(moreErrors ? { moreErrors } : {}),
      };
    }

    const error = exception as { statusCode?: unknown; message?: unknown; name?: unknown };
    if (
      typeof error?.statusCode === 'number' &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      // Errors of Fastify plugins raised outside Nest's router; their messages are written for clients.
      const message = String(error.message ?? 'The request is not valid');
      return {
        success: false,
        message,
        statusCode: error.statusCode,
        code: errorCodeForStatus(error.statusCode),
      };
    }

    if (DATABASE_DOWN.test(`${String(error?.name)} ${String(error?.message)}`)) {
      return {
        success: false,
        message:
          'The service is temporarily unavailable (database unreachable). Please try again shortly.',
        statusCode: HttpStatus.SERVICE_UNAVAILABLE,
        code: 'SERVICE_UNAVAILABLE',
        requestId,
      };
    }

    return {
      success: false,
      message: `Something went wrong on our side. Please try again; if it persists, quote reference ${requestId ?? 'unknown'}.`,
      statusCode: HttpStatus.INTERNAL_SERVER_ERROR,
      code: 'INTERNAL_ERROR',
      requestId,
    };
  }
}
