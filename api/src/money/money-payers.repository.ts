import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { MoneyEntryRecord } from './money-ledger.repository';
import { MoneyEntry } from './schemas/money-entry.schema';

/**
 * The people in the money ledger (issue 39): a person's entries for their export, and the payer's
 * number forgotten on erasure, except while money is still to be sent back to it. Each method is
 * one query or one update on the entries, as in MoneyLedgerRepository.
 */
@Injectable()
export class MoneyPayersRepository {
  constructor(@InjectModel(MoneyEntry.name) private readonly entries: Model<MoneyEntry>) {}

  /** Entries of these orders, or meant for them (a person's money, for their export or erasure). */
  ofOrders(orderIds: string[], purchaseNumbers: string[] = []): Promise<MoneyEntryRecord[]> {
    return this.entries
      .find({
        $or: [
          { orderId: { $in: orderIds } },
          { meantFor: { $in: [...orderIds, ...purchaseNumbers] } },
        ],
      })
      .sort({ at: 1 })
      .lean<MoneyEntryRecord[]>()
      .exec();
  }

  /**
   * Forgets the payer (the number M-Pesa named) of these entries, except where a payback to them
   * is still to be sent: those keep it, marked to forget it once sent (`forgetSettledPayers`).
   * Names of the person on entries they recorded are replaced by `name`.
   */
  async forgetPayers(ids: string[], byId: string | null, name: string): Promise<void> {
    if (!ids.length) return;
    const waiting = await this.entriesAwaitingPayback(ids);
    await this.entries.updateMany(
      { _id: { $in: ids.filter((id) => !waiting.has(id)) } },
      { $set: { payer: null }, $unset: { forgetPayer: '' } },
    );
    if (waiting.size)
      await this.entries.updateMany(
        { _id: { $in: [...waiting] } },
        { $set: { forgetPayer: true } },
      );
    if (byId)
      await this.entries.updateMany({ _id: { $in: ids }, byId }, { $set: { byName: name } });
  }

  /** Ids of the entries these numbers paid (an erasure of a payer proven by SMS code). */
  async paidBy(numbers: string[]): Promise<string[]> {
    if (!numbers.length) return [];
    const docs = await this.entries
      .find({ payer: { $in: numbers } })
      .select({ _id: 1 })
      .lean<{ _id: string }[]>();
    return docs.map((d) => d._id);
  }

  /** Forgets the payers marked by an erasure whose paybacks have all been sent. */
  async forgetSettledPayers(): Promise<number> {
    const marked = (
      await this.entries.find({ forgetPayer: true }).select({ _id: 1 }).lean<{ _id: string }[]>()
    ).map((d) => d._id);
    if (!marked.length) return 0;
    const waiting = await this.entriesAwaitingPayback(marked);
    const settled = marked.filter((id) => !waiting.has(id));
    if (!settled.length) return 0;
    const res = await this.entries.updateMany(
      { _id: { $in: settled } },
      { $set: { payer: null }, $unset: { forgetPayer: '' } },
    );
    return res.modifiedCount;
  }

  /**
   * Of these entries, those a payback by M-Pesa is still to reach: an incoming entry with an
   * outgoing one to send that has no M-Pesa code yet, that outgoing entry itself, and a payment
   * still open in the inbox.
   */
  private async entriesAwaitingPayback(ids: string[]): Promise<Set<string>> {
    const outs = await this.entries
      .find({
        direction: 'out',
        send: true,
        reference: '',
        $or: [{ of: { $in: ids } }, { _id: { $in: ids } }],
      })
      .select({ _id: 1, of: 1 })
      .lean<{ _id: string; of: string | null }[]>();
    const waiting = new Set<string>();
    for (const o of outs) {
      waiting.add(o._id);
      if (o.of) waiting.add(o.of);
    }
    // A payment still waiting in the inbox may yet go back to the number that paid it.
    const open = await this.entries
      .find({ _id: { $in: ids }, direction: 'in', state: 'open', returnable: { $gt: 0 } })
      .select({ _id: 1 })
      .lean<{ _id: string }[]>();
    for (const e of open) waiting.add(e._id);
    return waiting;
  }
}
