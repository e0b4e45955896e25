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

  /** The order's latest prompt, or null. */
  latestForOrder(orderId: string): Promise<MpesaPushRecord | null> {
    return this.pushes.findOne({ orderId }).sort({ createdAt: -1 }).lean<MpesaPushRecord>().exec();
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

  /** Adds a receipt a callback named; answers the prompt as it is after (null if unknown). */
  addReceipt(id: string, receipt: string): Promise<MpesaPushRecord | null> {
    return this.pushes
      .findOneAndUpdate({ _id: id }, { $addToSet: { receipts: receipt } }, { new: true })
      .lean<MpesaPushRecord>()
      .exec();
  }

  /** Puts the receipt on a paid prompt, unless a dispute or another receipt came first. */
  async setReceipt(id: string, receipt: string): Promise<boolean> {
    const res = await this.pushes.updateOne(
      { _id: id, status: 'paid', receipt: null, receiptDisputed: false },
      { $set: { receipt } },
    );
    return res.modifiedCount === 1;
  }

  /** Marks the prompt's receipts disputed, once; answers the receipt it had then (null: none). */
  async markDisputed(id: string): Promise<{ receipt: string | null } | null> {
    const before = await this.pushes
      .findOneAndUpdate(
        { _id: id, receiptDisputed: false },
        { $set: { receiptDisputed: true, receipt: null } },
      )
      .select({ receipt: 1 })
      .lean<{ receipt: string | null }>()
      .exec();
    return before ? { receipt: before.receipt ?? null } : null;
  }

  /** Failed prompts due to be asked about again, oldest first. */
  dueForRecheck(now: Date, limit: number): Promise<MpesaPushRecord[]> {
    return this.pushes
      .find({ status: 'failed', nextRecheckAt: { $ne: null, $lte: now } })
      .sort({ nextRecheckAt: 1 })
      .limit(limit)
      .lean<MpesaPushRecord[]>()
      .exec();
  }

  /** Takes a due recheck (one instance wins it) and schedules the next one, or none. */
  async claimRecheck(push: MpesaPushRecord, next: Date | null): Promise<boolean> {
    const res = await this.pushes.updateOne(
      { _id: push._id, status: 'failed', rechecks: push.rechecks ?? 0 },
      { $set: { nextRecheckAt: next }, $inc: { rechecks: 1 } },
    );
    return res.modifiedCount === 1;
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
      nextRecheckAt?: Date | null;
    },
  ): Promise<void> {
    await this.pushes.updateOne({ _id: id }, { $set: { ...outcome, settledAt: new Date() } });
  }
}
