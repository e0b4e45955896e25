import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  phoneSpellings,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { MoneyPayersRepository } from './money-payers.repository';

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

  constructor(private readonly entries: MoneyPayersRepository) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.orderIds.length) return { money: [] };
    const entries = await this.entries.ofOrders(subject.orderIds, subject.purchaseNumbers);
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
    const ofOrders = subject.orderIds.length
      ? (await this.entries.ofOrders(subject.orderIds, subject.purchaseNumbers)).map((e) => e._id)
      : [];
    // Payments from a number they proved (a guest's SMS code) that are on no order of theirs.
    const paidBy = await this.entries.paidBy(
      subject.proven.phones.flatMap(phoneSpellings).map((n) => n.replace(/^\+/, '')),
    );
    await this.entries.forgetPayers(
      [...new Set([...ofOrders, ...paidBy])],
      subject.accountId,
      ANONYMOUS_NAME,
    );
  }
}
