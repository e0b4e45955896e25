import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { PasswordReset } from './schemas/password-reset.schema';
import { RefreshToken } from './schemas/refresh-token.schema';

export type RefreshTokenRecord = Pick<
  RefreshToken,
  'userId' | 'familyId' | 'expiresAt' | 'usedAt' | 'revokedAt'
>;

@Injectable()
export class TokensRepository {
  constructor(
    @InjectModel(RefreshToken.name) private readonly refreshTokens: Model<RefreshToken>,
    @InjectModel(PasswordReset.name) private readonly resets: Model<PasswordReset>,
  ) {}

  async insertRefresh(record: {
    tokenHash: string;
    userId: string;
    familyId: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.refreshTokens.create({
      ...record,
      usedAt: null,
      revokedAt: null,
      createdAt: new Date(),
    });
  }

  async markUsed(tokenHash: string, now: Date): Promise<void> {
    await this.refreshTokens.updateOne({ tokenHash }, { $set: { usedAt: now } });
  }

  async findRefresh(tokenHash: string): Promise<RefreshTokenRecord | null> {
    return this.refreshTokens.findOne({ tokenHash }).lean<RefreshTokenRecord>();
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.refreshTokens.updateMany(
      { familyId, revokedAt: null },
      { $set: { revokedAt: now } },
    );
  }

  async revokeAllForUser(userId: string, now: Date): Promise<void> {
    await this.refreshTokens.updateMany({ userId, revokedAt: null }, { $set: { revokedAt: now } });
  }

  async insertReset(record: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
    await this.resets.create({ ...record, usedAt: null });
  }

  async findLiveReset(tokenHash: string, now: Date): Promise<{ userId: string } | null> {
    return this.resets
      .findOne({ tokenHash, usedAt: null, expiresAt: { $gt: now } })
      .lean<{ userId: string }>();
  }

  /** Marks every unused reset link of the account as used. */
  async voidResets(userId: string, now: Date): Promise<void> {
    await this.resets.updateMany({ userId, usedAt: null }, { $set: { usedAt: now } });
  }

  async markResetUsed(tokenHash: string, now: Date): Promise<void> {
    await this.resets.updateOne({ tokenHash }, { $set: { usedAt: now } });
  }

  /** Removes every session and reset link of an account (its erasure). */
  async forgetUser(userId: string): Promise<void> {
    await this.refreshTokens.deleteMany({ userId });
    await this.resets.deleteMany({ userId });
  }
}
