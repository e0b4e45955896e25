import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { MoneyLedgerRepository } from './money-ledger.repository';

/**
 * The money ledger keeps the number M-Pesa named as the payer of each payment. Exported: the
 * entries of the person's orders (what came in and went back, when, with which code). Erased: the
 * entries and their amounts stay (the books), the payer's number goes, except while money is still
 * to be sent back to it: that entry keeps the number until the payback is sent, then loses it.
 */
@Injectable()
@OwnsPersonalData()
export class MoneyPersonalData implements PersonalDataOwner {
  readonly collections = {
    money_entries:
      'the number that paid each M-Pesa payment (kept until money owed back is sent), the clerk who recorded it',
  };

  constructor(private readonly entries: MoneyLedgerRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.orderIds.length) return { money: [] };
    const entries = await this.entries.ofOrders(subject.orderIds);
    return {
      // No clerk's name, no internal state: what moved, how, when, for which order.
      money: entries
        .filter((e) => e.direction === 'out' || e.state === 'credited')
        .map((e) => ({
          direction: e.direction,
          kind: e.kind,
          amount: e.amount,
          code: e.code ?? (e.direction === 'out' ? e.reference || null : null),
          purchaseNumber: e.purchaseNumber,
          payer: e.payer,
          at: e.at,
        })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    if (!subject.orderIds.length) return;
    const entries = await this.entries.ofOrders(subject.orderIds);
    await this.entries.forgetPayers(
      entries.map((e) => e._id),
      subject.accountId,
      ANONYMOUS_NAME,
    );
  }
}
