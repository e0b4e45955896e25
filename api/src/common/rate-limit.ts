import { applyDecorators, Global, Module, UseGuards } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { SkipThrottle, ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Connection } from 'mongoose';
import { ErrorResponseDto } from './error-response.dto';
import { MongoThrottlerStorage } from './rate-limit.store';

const LIMITS = ['auth', 'tracking', 'orders'] as const;
export type RateLimitName = (typeof LIMITS)[number];

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

/** Limits a route per client and minute with one of the named limits (settings RATE_LIMIT_*). */
export function RateLimit(name: RateLimitName) {
  const skipOthers = Object.fromEntries(LIMITS.filter((n) => n !== name).map((n) => [n, true]));
  return applyDecorators(
    UseGuards(ThrottlerGuard),
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
        throttlers: LIMITS.map((name) => ({ name, ttl: 60_000, limit: config.rateLimits[name] })),
        errorMessage: RATE_LIMITED_MESSAGE,
        // Counted in the shared database, so several API instances enforce one limit together.
        storage: new MongoThrottlerStorage(connection),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
