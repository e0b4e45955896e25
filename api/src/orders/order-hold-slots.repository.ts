import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { canonicalPhone } from '../common/identifiers';
import { duplicateKeyField } from '../common/mongo-errors';
import { escapeRegExp } from '../common/pagination';
import { slotPrefix } from '../common/quota';
import type { OrderRecord } from './order.types';
import { toRecord, type LeanOrder } from './order-record';
import { Order } from './schemas/order.schema';

/** What makes an order hold its cap slots: it is Pending and unpaid (and carries slots). */
const HOLDING = { orderStatus: 'Pending', paymentStatus: 'Pending' } as const;
const HOLD_SLOTS_INDEX = 'open_unpaid_hold_slots';

/** The cap slots open unpaid orders hold (the hoarding limits), and open unpaid orders by phone. */
@Injectable()
export class OrderHoldSlotsRepository implements OnModuleInit {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  /**
   * The unique index the hoarding rules rest on, made before the API serves (it refuses to start
   * without it): a cap slot is held by one open unpaid order at a time (the order leaves the
   * index, freeing its slots, in the write that pays, confirms or cancels it).
   */
  async onModuleInit(): Promise<void> {
    await this.orders.collection.createIndex(
      { holdSlots: 1 },
      {
        name: HOLD_SLOTS_INDEX,
        unique: true,
        partialFilterExpression: { ...HOLDING, holdSlots: { $exists: true } },
      },
    );
  }

  /**
   * Open unpaid orders whose phone is this one (E.164, however it was typed), newest first. Phones
   * are kept as typed, so the recent open orders are read and compared in their one spelling.
   */
  async openUnpaidByPhone(
    e164: string,
    statuses: readonly string[],
    limit: number,
  ): Promise<OrderRecord[]> {
    const docs = await this.orders
      .find({ placement: 'placed', paymentStatus: 'Pending', orderStatus: { $in: statuses } })
      .sort({ orderDate: -1 })
      .limit(2000)
      .lean<LeanOrder[]>();
    return docs
      .filter((d) => canonicalPhone(d.guestInfo.phoneNumber) === e164)
      .slice(0, limit)
      .map(toRecord);
  }

  /** The cap slots of these keys that open unpaid orders hold now. */
  async takenHoldSlots(keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    const prefixes = keys.map((k) => new RegExp(`^${escapeRegExp(slotPrefix(k))}`));
    const docs = await this.orders
      .find({ ...HOLDING, holdSlots: { $exists: true, $in: prefixes } })
      .select({ holdSlots: 1 })
      .lean<{ holdSlots: string[] }[]>();
    return docs.flatMap((d) => d.holdSlots);
  }

  /** True when an insert failed because another open unpaid order took one of its cap slots. */
  isHoldSlotCollision(error: unknown): boolean {
    return (
      duplicateKeyField(error) === 'holdSlots' ||
      (duplicateKeyField(error) !== undefined && String(error).includes(HOLD_SLOTS_INDEX))
    );
  }
}
