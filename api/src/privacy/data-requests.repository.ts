import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import type { DataRequestKind, DataRequestStatus } from './data-requests.service';

export interface DataRequestDoc {
  _id: string;
  kind: DataRequestKind;
  purchaseNumber: string;
  /** +254…, as the code was sent. */
  phone: string;
  codeHash: string;
  codeExpiresAt: Date;
  attempts: number;
  status: DataRequestStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  dueAt: Date | null;
  answeredAt: Date | null;
  answer: 'export' | 'anonymised' | null;
  answeredBy: string | null;
  /** Set while unconfirmed: the database forgets the request then (its code long expired). */
  forgetAt?: Date;
}

/** The `data_requests` collection: guests' requests, proved by an SMS code, until answered. */
@Injectable()
export class DataRequestsRepository implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    await this.requests()
      .createIndex({ status: 1, dueAt: 1 })
      .catch(() => undefined);
    await this.requests()
      .createIndex({ forgetAt: 1 }, { expireAfterSeconds: 0 })
      .catch(() => undefined);
    await this.requests()
      .createIndex({ phone: 1 })
      .catch(() => undefined);
  }

  async insert(doc: DataRequestDoc): Promise<void> {
    await this.requests().insertOne(doc);
  }

  find(id: string): Promise<DataRequestDoc | null> {
    return this.requests().findOne({ _id: id });
  }

  /** Counts one try of an unconfirmed request's code (before it is compared); null if not one. */
  countAttempt(id: string): Promise<DataRequestDoc | null> {
    return this.requests().findOneAndUpdate(
      { _id: id, status: 'unconfirmed' },
      { $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
  }

  /** Confirms an unconfirmed request: in the admin's queue, due by `dueAt`; null if it was not. */
  confirm(id: string, at: Date, dueAt: Date): Promise<DataRequestDoc | null> {
    return this.requests().findOneAndUpdate(
      { _id: id, status: 'unconfirmed' },
      {
        // The code's hash stays: a later confirm must give the same code to be answered.
        $set: { status: 'open', confirmedAt: at, dueAt },
        $unset: { forgetAt: '' },
      },
      { returnDocument: 'after' },
    );
  }

  /** Confirmed requests, the open ones first, soonest due first. */
  queue(limit: number): Promise<DataRequestDoc[]> {
    return this.requests()
      .find({ status: { $in: ['open', 'answered'] } })
      .sort({ status: -1, dueAt: 1 })
      .limit(limit)
      .toArray();
  }

  /** Answers an open request once; null when it was not open. */
  markAnswered(
    id: string,
    answer: 'export' | 'anonymised',
    by: string,
  ): Promise<DataRequestDoc | null> {
    return this.requests().findOneAndUpdate(
      { _id: id, status: 'open' },
      { $set: { status: 'answered', answeredAt: new Date(), answer, answeredBy: by } },
      { returnDocument: 'after' },
    );
  }

  async idsOfPhone(phone: string): Promise<string[]> {
    if (!phone) return [];
    const docs = await this.requests()
      .find({ phone }, { projection: { _id: 1 } })
      .toArray();
    return docs.map((d) => d._id);
  }

  ofPhones(phones: string[]): Promise<DataRequestDoc[]> {
    if (!phones.length) return Promise.resolve([]);
    return this.requests()
      .find({ phone: { $in: phones } })
      .sort({ createdAt: 1 })
      .toArray();
  }

  async forgetPhoneOf(id: string): Promise<void> {
    await this.requests().updateOne({ _id: id }, { $set: { phone: '' } });
  }

  /** The requests made with these phones lose the number (an erasure). */
  async forgetPhones(phones: string[]): Promise<void> {
    if (phones.length)
      await this.requests().updateMany({ phone: { $in: phones } }, { $set: { phone: '' } });
  }

  private requests(): mongo.Collection<DataRequestDoc> {
    return this.connection.db!.collection<DataRequestDoc>('data_requests');
  }
}
