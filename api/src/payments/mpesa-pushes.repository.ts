import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { MpesaPushStatus } from '@spc/shared-contracts';
import { MpesaPush, type MpesaCallbackRecord } from './schemas/mpesa-push.schema';

/** A prompt as the payments module works with it. */
export type MpesaPushRecord = Omit<MpesaPush, 'callback'> & {
  callback: MpesaCallbackRecord | null;
};

export type NewMpesaPush = Pick<
  MpesaPush,
  '_id' | 'merchantRequestId' | 'orderId' | 'purchaseNumber' | 'phone' | 'amount'
>;

/** The only place that touches the M-Pesa prompts collection. */
@Injectable()
export class MpesaPushesRepository {
  constructor(@InjectModel(MpesaPush.name) private readonly pushes: Model<MpesaPush>) {}

  async insert(push: NewMpesaPush): Promise<void> {
    await this.pushes.create({ ...push, status: 'pending' });
  }

  findById(id: string): Promise<MpesaPushRecord | null> {
    return this.pushes.findById(id).lean<MpesaPushRecord>().exec();
  }

  /** Pending prompts older than `before` not asked about since `before`: the reconciler's work. */
  unanswered(before: Date, limit: number): Promise<MpesaPushRecord[]> {
    return this.pushes
      .find({
        status: 'pending',
        createdAt: { $lt: before },
        $or: [{ lastQueriedAt: null }, { lastQueriedAt: { $lt: before } }],
      })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<MpesaPushRecord[]>()
      .exec();
  }

  async recordCallback(id: string, callback: MpesaCallbackRecord): Promise<void> {
    await this.pushes.updateOne({ _id: id }, { $set: { callback }, $inc: { callbackCount: 1 } });
  }

  async countCallback(id: string): Promise<void> {
    await this.pushes.updateOne({ _id: id }, { $inc: { callbackCount: 1 } });
  }

  async setReceipt(id: string, receipt: string): Promise<void> {
    await this.pushes.updateOne({ _id: id }, { $set: { receipt } });
  }

  async markQueried(id: string): Promise<void> {
    await this.pushes.updateOne({ _id: id }, { $set: { lastQueriedAt: new Date() } });
  }

  async settle(
    id: string,
    outcome: {
      status: Exclude<MpesaPushStatus, 'pending'>;
      message: string;
      resultCode: number | null;
      resultDesc: string;
      receipt: string | null;
    },
  ): Promise<void> {
    await this.pushes.updateOne({ _id: id }, { $set: { ...outcome, settledAt: new Date() } });
  }
}
