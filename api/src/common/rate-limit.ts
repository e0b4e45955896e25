import {
  applyDecorators,
  Global,
  HttpException,
  HttpStatus,
  Injectable,
  Module,
  UseGuards,
  type ExecutionContext,
} from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import {
  SkipThrottle,
  ThrottlerGuard,
  ThrottlerModule,
  type ThrottlerLimitDetail,
} from '@nestjs/throttler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Connection } from 'mongoose';
import { ErrorResponseDto } from './error-response.dto';
import { canonicalEmail, clientNetwork } from './identifiers';
import { personalKeys } from './personal-key';
import { MongoThrottlerStorage } from './rate-limit.store';

const LIMITS = [
  'auth',
  'tracking',
  'orders',
  'uploads',
  'account',
  'contact',
  'smsInbound',
] as const;
export type RateLimitName = Exclude<(typeof LIMITS)[number], 'account'>;

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

/** A 429 that tells the client when to come back, in seconds, in the `Retry-After` header. */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ message, retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Which account a request is about: the signed-in user, else the e-mail in the body (sign-in,
 * sign-up, forgotten password). Requests about no account count under their address.
 */
export function accountTracker(req: Record<string, unknown>): string {
  const user = req.user as { id?: unknown } | undefined;
  if (typeof user?.id === 'string') return `user:${user.id}`;
  const email = (req.body as { email?: unknown } | undefined)?.email;
  if (typeof email === 'string' && email.trim())
    return `email:${canonicalEmail(email).slice(0, 320)}`;
  return addressTracker(req);
}

/** Requests from one client network (an IPv4 address, an IPv6 /64) count together. */
export function addressTracker(req: Record<string, unknown>): string {
  return `ip:${clientNetwork(String(req.ip))}`;
}

/** The throttler guard, answering its 429 with a plain `Retry-After` header. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new TooManyRequestsException(
      await this.getErrorMessage(context, detail),
      Math.max(1, detail.timeToBlockExpire),
    );
  }
}

/**
 * Limits a route per client address and minute with one of the named limits (settings RATE_LIMIT_*);
 * with `perAccount`, also per account (RATE_LIMIT_ACCOUNT_PER_MINUTE), so that many addresses cannot
 * together hammer one account.
 */
export function RateLimit(name: RateLimitName, options: { perAccount?: boolean } = {}) {
  const applied = new Set<string>([name, ...(options.perAccount ? ['account'] : [])]);
  const skipOthers = Object.fromEntries(
    LIMITS.filter((n) => !applied.has(n)).map((n) => [n, true]),
  );
  return applyDecorators(
    UseGuards(RateLimitGuard),
    SkipThrottle(skipOthers),
    ApiTooManyRequestsResponse({
      type: ErrorResponseDto,
      description: 'Too many requests from this client; wait a minute',
    }),
  );
}

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, getConnectionToken()],
      useFactory: (config: AppConfig, connection: Connection) => ({
        throttlers: LIMITS.map((name) => ({
          name,
          ttl: 60_000,
          limit: config.rateLimits[name],
          // Per account (uploads come from signed-in users), whatever address they come from; the
          // others per client network.
          getTracker: name === 'account' || name === 'uploads' ? accountTracker : addressTracker,
        })),
        errorMessage: RATE_LIMITED_MESSAGE,
        // Counted in the shared database, so several API instances enforce one limit together.
        storage: new MongoThrottlerStorage(connection, personalKeys(config)),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
