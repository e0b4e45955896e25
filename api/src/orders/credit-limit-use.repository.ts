import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';

/** One order's share of its organisation's credit, kept until it is paid or cancelled. */
export interface CreditClaim {
  orderId: string;
  amount: number;
  at: Date;
  /** The invoice settlements that took part of it already (issue 44), each once. */
  reduced?: string[];
}

/** An organisation's credit in use: the sum of its open orders' claims, and the claims. */
interface CreditUse {
  _id: string;
  used: number;
  orders: CreditClaim[];
}

/**
 * `credit_limit_use`: per organisation, what its open orders from quotations owe against its
 * credit limit. A claim is one conditional write that adds the order's amount only while the sum
 * stays within the limit and the order has no claim yet, and a release one write that takes it
 * out only while the order still has it: two acceptances at once cannot both pass the limit, and
 * a claim given back twice counts once.
 */
@Injectable()
export class CreditLimitUseRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private use(): Collection<CreditUse> {
    return this.connection.collection<CreditUse>('credit_limit_use');
  }

  /** Claims `amount` for the order within `limit`; answers the credit used when refused. */
  async claim(
    organisationId: string,
    orderId: string,
    amount: number,
    limit: number,
  ): Promise<{ claimed: true } | { claimed: false; used: number }> {
    await this.use().updateOne(
      { _id: organisationId },
      { $setOnInsert: { used: 0, orders: [] } },
      { upsert: true, writeConcern: MONEY_WRITE_CONCERN },
    );
    const res = await this.use().updateOne(
      { _id: organisationId, used: { $lte: limit - amount }, 'orders.orderId': { $ne: orderId } },
      { $inc: { used: amount }, $push: { orders: { orderId, amount, at: new Date() } } },
      { writeConcern: MONEY_WRITE_CONCERN },
    );
    if (res.modifiedCount === 1) return { claimed: true };
    const now = await this.read(organisationId);
    if (now.orders.some((o) => o.orderId === orderId)) return { claimed: true };
    return { claimed: false, used: now.used };
  }

  /** The order's claim given back, once however often asked (none: nothing changes). */
  async release(organisationId: string, orderId: string): Promise<void> {
    const claim = (await this.read(organisationId)).orders.find((o) => o.orderId === orderId);
    if (!claim) return;
    await this.use().updateOne(
      { _id: organisationId, 'orders.orderId': orderId },
      { $inc: { used: -claim.amount }, $pull: { orders: { orderId } } },
      { writeConcern: MONEY_WRITE_CONCERN },
    );
  }

  /**
   * Takes `amount` off the order's claim for an invoice's settlement (issue 44: a payment, tax
   * withheld, a credit note), once per settlement id however often asked, never below 0; the
   * claim's remaining amount is what its release gives back. No claim (paid, released): nothing.
   */
  async reduce(
    organisationId: string,
    orderId: string,
    settlementId: string,
    amount: number,
  ): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const claim = (await this.read(organisationId)).orders.find((o) => o.orderId === orderId);
      if (!claim || claim.reduced?.includes(settlementId)) return;
      const by = Math.max(0, Math.min(amount, claim.amount));
      const res = await this.use().updateOne(
        {
          _id: organisationId,
          orders: {
            $elemMatch: { orderId, amount: claim.amount, reduced: { $ne: settlementId } },
          },
        },
        {
          $inc: { used: -by, 'orders.$.amount': -by },
          $push: { 'orders.$.reduced': settlementId },
        },
        { writeConcern: MONEY_WRITE_CONCERN },
      );
      if (res.modifiedCount === 1) return;
    }
  }

  /** The organisation's credit in use now and its open orders' claims. */
  async read(organisationId: string): Promise<{ used: number; orders: CreditClaim[] }> {
    const doc = await this.use().findOne({ _id: organisationId });
    return { used: doc?.used ?? 0, orders: doc?.orders ?? [] };
  }
}
