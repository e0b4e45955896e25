import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  OwnsPersonalData,
  NO_PERSONAL_DATA,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { StockLedgerRepository } from './stock-ledger.repository';

const PAGE = 500;

/**
 * The stock ledger names who moved stock: a customer who cancelled their own order, and notes that
 * may quote a name. Not exported (it is the shop's stock, not the person's data); erased: each
 * movement keeps its figures, the person leaves its `by` and its note.
 */
@Injectable()
@OwnsPersonalData()
export class StockPersonalData implements PersonalDataOwner {
  readonly collections = {
    stock_movements: "who moved stock: a customer's name on their own cancels, names in notes",
    products: NO_PERSONAL_DATA,
  };

  constructor(private readonly ledger: StockLedgerRepository) {}

  async erase(subject: DataSubject): Promise<void> {
    let changes: Parameters<StockLedgerRepository['rewriteMovements']>[0] = [];
    for await (const m of this.ledger.movementsOfPerson(subject.orderIds, subject.accountId)) {
      const set: (typeof changes)[number]['set'] = {};
      const mine = !!m.by && !!subject.accountId && m.by.id === subject.accountId;
      // A clerk who moved the stock keeps their name, even if the person typed it as their own;
      // a guest's own cancel is by the name typed on the order.
      const clerk = m.by && !mine && m.by.role !== 'guest' && m.by.role !== 'customer';
      const words = clerk
        ? {
            ...subject,
            names: subject.names.filter(
              (n) => n.trim().toLowerCase() !== m.by!.fullName.trim().toLowerCase(),
            ),
          }
        : subject;
      const note = scrubText(m.note ?? '', words);
      if (note !== m.note) set.note = note;
      if (mine && m.by!.fullName !== ANONYMOUS_NAME) set['by.fullName'] = ANONYMOUS_NAME;
      else if (m.by && !clerk) {
        const name = scrubText(m.by.fullName, words);
        if (name !== m.by.fullName) set['by.fullName'] = name;
      }
      if (Object.keys(set).length) changes.push({ id: m._id, set });
      if (changes.length >= PAGE) {
        await this.ledger.rewriteMovements(changes);
        changes = [];
      }
    }
    await this.ledger.rewriteMovements(changes);
  }
}
