import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { Role } from '@spc/shared-contracts';
import { ClaimsService } from '../common/claims';
import { UsersService } from '../users/users.service';
import { TokensRepository } from './tokens.repository';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AccessClaims {
  sub: string;
  role: Role;
  fullName: string;
  /** The account's token version when issued; a password change or reset moves it on. */
  tv?: number;
  exp?: number;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const opaqueToken = () => randomBytes(32).toString('base64url');
const refreshExpiry = () => new Date(Date.now() + REFRESH_TOKEN_TTL_MS);

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

/** Access tokens (JWT, 15 minutes) and opaque refresh and reset tokens stored hashed. */
@Injectable()
export class TokensService {
  constructor(
    private readonly jwt: JwtService,
    private readonly tokens: TokensRepository,
    private readonly claims: ClaimsService,
    private readonly users: UsersService,
  ) {}

  /** A new sign-in: a new refresh-token family. */
  async issue(user: { _id: string; role: Role; fullName: string }): Promise<TokenPair> {
    const familyId = randomUUID();
    const expiresAt = refreshExpiry();
    await this.tokens.createFamily({ familyId, userId: user._id, generation: 0, expiresAt });
    return this.pair(user, { familyId, generation: 0, expiresAt });
  }

  /**
   * Exchanges a refresh token for a new pair in the same family. A token used twice ends the whole
   * family, the pair its first use got included: whoever holds a copy, thief or owner, must sign in
   * again.
   */
  async rotate(
    refreshToken: string,
    loadUser: (userId: string) => Promise<{ _id: string; role: Role; fullName: string }>,
  ): Promise<TokenPair> {
    const now = new Date();
    const record = await this.tokens.findRefresh(sha256(refreshToken));
    if (!record)
      throw new UnauthorizedException({
        message: 'This refresh token is not valid. Please sign in again.',
        code: 'SESSION_EXPIRED',
      });
    if (record.revokedAt || record.expiresAt <= now)
      throw new UnauthorizedException({ message: SESSION_EXPIRED, code: 'SESSION_EXPIRED' });
    const next = {
      familyId: record.familyId,
      generation: (record.generation ?? 0) + 1,
      expiresAt: refreshExpiry(),
    };
    // One conditional write on the family decides, on any instance: only its current token moves it
    // on. A token issued before families had a record is current while its family has none.
    const rotated =
      record.generation === undefined
        ? !record.usedAt && (await this.tokens.createFamily({ ...next, userId: record.userId }))
        : await this.tokens.advanceFamily(record.familyId, record.generation, next.expiresAt);
    if (!rotated) {
      // A rotated token, or one racing its twin: the family ends, and with it every token it has
      // (the one the twin is being given too, since each use checks the family).
      const ended = await this.tokens.revokeFamily(
        { familyId: record.familyId, userId: record.userId, expiresAt: refreshExpiry() },
        now,
      );
      throw new UnauthorizedException({
        message: ended
          ? 'This session was ended for your safety because its refresh token was used twice. Please sign in again.'
          : SESSION_EXPIRED,
        code: 'SESSION_EXPIRED',
      });
    }
    const user = await loadUser(record.userId);
    return this.pair(user, next);
  }

  /** Logout: ends the session the token belongs to, if it is the caller's. */
  async revoke(refreshToken: string, userId: string): Promise<void> {
    const record = await this.tokens.findRefresh(sha256(refreshToken));
    if (record && record.userId === userId)
      await this.tokens.revokeFamily(
        { familyId: record.familyId, userId, expiresAt: refreshExpiry() },
        new Date(),
      );
  }

  /** Ends every session of the account and voids its unused reset links. */
  async revokeAll(userId: string): Promise<void> {
    const now = new Date();
    await this.tokens.revokeAllForUser(userId, now, refreshExpiry());
    await this.tokens.voidResets(userId, now);
  }

  /**
   * A new reset link; any earlier one of the account stops working. Recorded first, then those
   * made before it are voided: of links made at once (two e-mails sent together) the last one made
   * works, never two (voiding all then recording left each one's record alive).
   */
  async createResetCode(userId: string): Promise<string> {
    const code = opaqueToken();
    const id = await this.tokens.insertReset({
      tokenHash: sha256(code),
      userId,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    await this.tokens.voidResetsBefore(userId, id, new Date());
    return code;
  }

  /** The user of a live reset code, without using it up; null otherwise. */
  async resetCodeOwner(code: string): Promise<string | null> {
    return (await this.tokens.findLiveReset(sha256(code), new Date()))?.userId ?? null;
  }

  /** The user of a live reset code, the first time it is used; null otherwise. */
  async consumeResetCode(code: string): Promise<string | null> {
    const hash = sha256(code);
    const record = await this.tokens.findLiveReset(hash, new Date());
    if (!record || !(await this.claims.claimOnce(`reset:${hash}`))) return null;
    await this.tokens.markResetUsed(hash, new Date());
    return record.userId;
  }

  private async pair(
    user: { _id: string; role: Role; fullName: string },
    family: { familyId: string; generation: number; expiresAt: Date },
  ): Promise<TokenPair> {
    const claims: AccessClaims = {
      sub: user._id,
      role: user.role,
      fullName: user.fullName,
      tv: await this.users.tokenVersion(user._id),
    };
    const accessToken = await this.jwt.signAsync(claims);
    const refreshToken = opaqueToken();
    await this.tokens.insertRefresh({
      tokenHash: sha256(refreshToken),
      userId: user._id,
      ...family,
    });
    return { accessToken, refreshToken };
  }
}
