import { Global, Injectable, Module } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { isDuplicateKeyError } from './mongo-errors';

interface ClaimDoc {
  _id: string;
  createdAt: Date;
}

/**
 * Once-only claims that hold across API instances: inserting a document whose `_id` is taken
 * fails, so exactly one caller wins a key (a reset code's use, an M-Pesa receipt).
 */
@Injectable()
export class ClaimsService {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** True for the first caller with this key; false for every later one. */
  async claimOnce(key: string): Promise<boolean> {
    try {
      await this.claims().insertOne({ _id: key, createdAt: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  private claims(): mongo.Collection<ClaimDoc> {
    return this.connection.db!.collection<ClaimDoc>('claims');
  }
}

@Global()
@Module({ providers: [ClaimsService], exports: [ClaimsService] })
export class ClaimsModule {}
