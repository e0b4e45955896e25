import {
  ExecutionContext,
  ForbiddenException,
  HttpException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ACCESS_RULE, type AccessRule } from './access.decorators';
import type { Principal } from './principal';

const SIGN_IN = 'Please sign in to continue.';
const EXPIRED = 'Your session has expired. Please sign in again.';

/**
 * The one global guard: every route declares `@Public()` or `@Auth(...)`, and a route without a rule
 * is refused (deny by default). The role comes from the verified token alone; headers such as
 * `isAdmin` grant nothing.
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) throw new ForbiddenException('This route is not open to anyone');

    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, unknown>; user?: Principal }>();
    if (rule.kind === 'public') {
      if (!rule.optionalUser || !request.headers.authorization) return true;
      return (await super.canActivate(context)) as boolean;
    }

    await super.canActivate(context);
    const user = request.user!;
    if (!rule.roles.includes(user.role)) {
      throw new ForbiddenException('You do not have permission to do this');
    }
    return true;
  }

  override handleRequest<T>(error: unknown, user: T, info: unknown): T {
    if (error instanceof HttpException) throw error;
    if (error || !user) {
      const name = (info as { name?: string } | undefined)?.name;
      throw new UnauthorizedException(
        name === 'TokenExpiredError'
          ? { message: EXPIRED, code: 'TOKEN_EXPIRED' }
          : { message: SIGN_IN, code: 'UNAUTHENTICATED' },
      );
    }
    return user;
  }
}
