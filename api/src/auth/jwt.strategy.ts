import { ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DEACTIVATED_MESSAGE, UsersService } from '../users/users.service';
import type { AccessClaims } from './tokens.service';

/**
 * Verifies the bearer token and checks the account behind it on every request: a deactivated or
 * deleted account, or one whose role changed, loses access at once rather than when the token ends.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.jwt.accessSecret,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /**
   * A token must carry its expiry, and the account's current token version: a password change or
   * reset ends every access token issued before it.
   */
  async validate(claims: AccessClaims): Promise<Principal> {
    const session =
      typeof claims.sub === 'string' && typeof claims.exp === 'number'
        ? await this.users.findSession(claims.sub).catch(() => null)
        : null;
    const user = session?.user;
    if (!user || user.role !== claims.role || (claims.tv ?? 0) !== session.tokenVersion) {
      throw new UnauthorizedException('Your session is no longer valid. Please sign in again.');
    }
    if (!user.isActive) throw new ForbiddenException(DEACTIVATED_MESSAGE);
    return { id: user._id, role: user.role, fullName: user.fullName };
  }
}
