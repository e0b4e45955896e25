import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import type { ConsentEvent, ConsentSource, MarketingConsent } from './consents.service';

export const CONSENTS_COLLECTION = 'marketing_consents';

/** The `marketing_consents` collection: one record per account, its changes in `history`. */
@Injectable()
export class ConsentsRepository implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    await this.consents()
      .createIndex({ phone: 1 })
      .catch(() => undefined);
  }

  find(userId: string): Promise<MarketingConsent | null> {
    return this.consents().findOne({ _id: userId });
  }

  /** Records a change when the consent is not already so; false when there was nothing to change. */
  async change(
    userId: string,
    phone: string | null,
    granted: boolean,
    source: ConsentSource,
    at: Date,
  ): Promise<void> {
    await this.consents().updateOne(
      { _id: userId, granted: { $ne: granted } },
      {
        $set: { phone, granted, at, source },
        $push: { history: { granted, at, source } },
      },
      { upsert: false },
    );
  }

  /** The first record of an account (another request may have written it a moment ago). */
  async insertFirst(consent: MarketingConsent): Promise<void> {
    await this.consents()
      .insertOne(consent)
      .catch(() => undefined);
  }

  /** Withdraws the consents given with this number or of these accounts; answers how many. */
  async withdraw(phone: string, accountIds: string[], event: ConsentEvent): Promise<number> {
    const res = await this.consents().updateMany(
      { $or: [{ phone }, { _id: { $in: accountIds } }], granted: true },
      {
        $set: { granted: false, at: event.at, source: event.source },
        $push: { history: event },
      },
    );
    return res.modifiedCount;
  }

  async forget(userId: string): Promise<void> {
    await this.consents().deleteOne({ _id: userId });
  }

  private consents(): mongo.Collection<MarketingConsent> {
    return this.connection.db!.collection<MarketingConsent>(CONSENTS_COLLECTION);
  }
}
