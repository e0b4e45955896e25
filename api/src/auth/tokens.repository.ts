import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { PasswordReset } from './schemas/password-reset.schema';
import { RefreshFamily } from './schemas/refresh-family.schema';
import { RefreshToken } from './schemas/refresh-token.schema';

export type RefreshTokenRecord = Pick<
  RefreshToken,
  'userId' | 'familyId' | 'generation' | 'expiresAt' | 'usedAt' | 'revokedAt'
>;

@Injectable()
export class TokensRepository {
  constructor(
    @InjectModel(RefreshToken.name) private readonly refreshTokens: Model<RefreshToken>,
    @InjectModel(RefreshFamily.name) private readonly families: Model<RefreshFamily>,
    @InjectModel(PasswordReset.name) private readonly resets: Model<PasswordReset>,
  ) {}

  /**
   * Records a new family at a generation (0 for a sign-in). False when it exists already: the
   * first use of a token issued before families had a record claims its family this way.
   */
  async createFamily(family: {
    familyId: string;
    userId: string;
    generation: number;
    expiresAt: Date;
  }): Promise<boolean> {
    try {
      await this.families.create({
        _id: family.familyId,
        userId: family.userId,
        generation: family.generation,
        revokedAt: null,
        expiresAt: family.expiresAt,
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /**
   * Rotates a family from `generation` to the next, only while that is its current generation and
   * it has not ended; false otherwise (the token was rotated already, or the family ended).
   */
  async advanceFamily(familyId: string, generation: number, expiresAt: Date): Promise<boolean> {
    const res = await this.families.updateOne(
      { _id: familyId, generation, revokedAt: null },
      { $inc: { generation: 1 }, $set: { expiresAt } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Ends a family, recording it ended if it had no record yet (one issued before families had a
   * record). True when this call ended it; false when it had ended already. `expiresAt` is for a
   * new record, and must outlive every token of the family, or one could claim it after.
   */
  async revokeFamily(
    family: { familyId: string; userId: string; expiresAt: Date },
    now: Date,
  ): Promise<boolean> {
    const live = { _id: family.familyId, revokedAt: null };
    try {
      const res = await this.families.updateOne(
        live,
        {
          $set: { revokedAt: now },
          $setOnInsert: { userId: family.userId, generation: 0, expiresAt: family.expiresAt },
        },
        { upsert: true },
      );
      return res.matchedCount + res.upsertedCount > 0;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // The record exists (ended, or created a moment ago): the plain conditional update decides.
      return (await this.families.updateOne(live, { $set: { revokedAt: now } })).matchedCount > 0;
    }
  }

  /**
   * Ends every family of the account: those with a record, then those of tokens issued before
   * families had one (recorded ended, so that such a token's first use cannot claim it afterwards).
   */
  async revokeAllForUser(userId: string, now: Date, expiresAt: Date): Promise<void> {
    await this.families.updateMany({ userId, revokedAt: null }, { $set: { revokedAt: now } });
    const familyIds = (await this.refreshTokens.distinct('familyId', {
      userId,
      generation: { $exists: false },
    })) as string[];
    for (const familyId of familyIds) await this.revokeFamily({ familyId, userId, expiresAt }, now);
  }

  async insertRefresh(record: {
    tokenHash: string;
    userId: string;
    familyId: string;
    generation: number;
    expiresAt: Date;
  }): Promise<void> {
    await this.refreshTokens.create({ ...record, createdAt: new Date() });
  }

  async findRefresh(tokenHash: string): Promise<RefreshTokenRecord | null> {
    return this.refreshTokens.findOne({ tokenHash }).lean<RefreshTokenRecord>();
  }

  /** Records a reset link; answers its record's id (ids grow with the time they were made). */
  async insertReset(record: {
    tokenHash: string;
    userId: string;
    expiresAt: Date;
  }): Promise<string> {
    const doc = await this.resets.create({ ...record, usedAt: null });
    return String(doc._id);
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

  /** Marks the account's unused reset links made before the one with this id as used. */
  async voidResetsBefore(userId: string, id: string, now: Date): Promise<void> {
    await this.resets.updateMany(
      { userId, usedAt: null, _id: { $lt: new Types.ObjectId(id) } },
      { $set: { usedAt: now } },
    );
  }

  async markResetUsed(tokenHash: string, now: Date): Promise<void> {
    await this.resets.updateOne({ tokenHash }, { $set: { usedAt: now } });
  }

  /** Removes every session and reset link of an account (its erasure). */
  async forgetUser(userId: string): Promise<void> {
    await this.refreshTokens.deleteMany({ userId });
    await this.families.deleteMany({ userId });
    await this.resets.deleteMany({ userId });
  }
}
