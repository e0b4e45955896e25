import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { toKenyanMsisdn } from '@spc/shared-contracts';
import type { Connection, mongo } from 'mongoose';

/** Where a consent was given or withdrawn. */
export type ConsentSource = 'profile' | 'sms-stop';

export interface ConsentEvent {
  granted: boolean;
  at: Date;
  source: ConsentSource;
}

/** A customer's consent to marketing text messages (order texts need none: they are transactional). */
export interface MarketingConsent {
  /** The account's id. */
  _id: string;
  /** The number the offers go to (+254…), or null. */
  phone: string | null;
  granted: boolean;
  at: Date | null;
  source: ConsentSource | null;
  /** Every change, oldest first. */
  history: ConsentEvent[];
}

export const CONSENTS_COLLECTION = 'marketing_consents';

/** Words that stop marketing texts when a customer replies with one of them. */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'ACHA']);

export function isStopReply(text: string): boolean {
  return STOP_WORDS.has(
    text
      .trim()
      .toUpperCase()
      .replace(/[^A-Z]/g, ''),
  );
}

/**
 * Marketing consent: off until the customer opts in, each change recorded with its time and
 * source. A STOP reply withdraws it for every account with that number.
 */
@Injectable()
export class ConsentsService implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    await this.consents()
      .createIndex({ phone: 1 })
      .catch(() => undefined);
  }

  async get(userId: string): Promise<MarketingConsent> {
    return (
      (await this.consents().findOne({ _id: userId })) ?? {
        _id: userId,
        phone: null,
        granted: false,
        at: null,
        source: null,
        history: [],
      }
    );
  }

  /** Records the customer's choice (nothing when it is already so); answers the consent now. */
  async set(
    userId: string,
    phoneNumber: string,
    granted: boolean,
    source: ConsentSource,
  ): Promise<MarketingConsent> {
    const now = new Date();
    const phone = toKenyanMsisdn(phoneNumber);
    await this.consents().updateOne(
      { _id: userId, granted: { $ne: granted } },
      {
        $set: { phone, granted, at: now, source },
        $push: { history: { granted, at: now, source } },
      },
      { upsert: false },
    );
    // The first choice: no record yet (a record that already says so is left as it is).
    if (!(await this.consents().findOne({ _id: userId })))
      await this.consents()
        .insertOne({
          _id: userId,
          phone,
          granted,
          at: now,
          source,
          history: [{ granted, at: now, source }],
        })
        .catch(() => undefined);
    return this.get(userId);
  }

  /**
   * A STOP reply from this number: withdraws every consent given with it, and that of every account
   * with this number now; answers how many.
   */
  async stopFrom(from: string): Promise<number> {
    const phone = toKenyanMsisdn(from);
    if (!phone) return 0;
    const now = new Date();
    const event: ConsentEvent = { granted: false, at: now, source: 'sms-stop' };
    // The number the consent was given with, or an account's number now (a phone changed since).
    const local = phone.slice(4);
    const accounts = await this.connection
      .db!.collection('users')
      .find(
        { phoneNumber: { $in: [phone, phone.slice(1), `0${local}`, local] } },
        { projection: { _id: 1 } },
      )
      .toArray();
    const res = await this.consents().updateMany(
      { $or: [{ phone }, { _id: { $in: accounts.map((a) => String(a._id)) } }], granted: true },
      { $set: { granted: false, at: now, source: 'sms-stop' }, $push: { history: event } },
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
