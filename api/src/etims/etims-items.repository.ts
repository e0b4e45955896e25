import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';
import { ETIMS_COUNTERS_COLLECTION } from './etims-documents.repository';
import type { OscuItemType, OscuTaxType } from './oscu.types';

export const ETIMS_ITEMS_COLLECTION = 'etims_items';

/** What was last registered with KRA for an item (saveItem answered 000). */
export interface EtimsItemRegistration {
  itemNm: string;
  itemClsCd: string;
  taxTyCd: OscuTaxType;
  dftPrc: number;
  at: Date;
}

/**
 * One eTIMS item (`etims_items`): a sale unit of a product (`product:<id>:<unit>`), or the
 * delivery service (`delivery`), with its item code, allocated once and kept, and what KRA was
 * last told about it.
 */
export interface EtimsItem {
  /** `<sequence>|<key>`: one per branch and key. */
  _id: string;
  /** The branch (`<PIN>/<bhfId>`): item codes are the branch's. */
  sequence: string;
  key: string;
  /** The branch's gap-free item number (the code's last seven digits). */
  seq: number;
  /** `KE` + item type + packing unit + quantity unit + the number: `KE2NTU0000012`. */
  itemCd: string;
  itemTyCd: OscuItemType;
  pkgUnitCd: string;
  qtyUnitCd: string;
  /** The unit's list price, tax included (saveItem's dftPrc), as last seen by a sale. */
  listPrice: number;
  registered: EtimsItemRegistration | null;
  /** While one attempt registers it: no other does before `until`. */
  registering: { by: string; until: Date } | null;
  createdAt: Date;
}

interface Counter {
  _id: string;
  last: number;
}

/** The code of an item: KRA's structure, country, type, packing unit, quantity unit, 7 digits. */
export function itemCodeOf(
  itemTyCd: OscuItemType,
  pkgUnitCd: string,
  qtyUnitCd: string,
  seq: number,
): string {
  return `KE${itemTyCd}${pkgUnitCd}${qtyUnitCd}${String(seq).padStart(7, '0')}`;
}

/**
 * The `etims_items` collection: the one place that reads or writes it. Item numbers are gap-free
 * per branch as invoice numbers are (`etims-documents.repository.ts`): the item is inserted
 * holding the number after the branch's item counter (`etims_counters`, `items:<sequence>`) under
 * a unique index, and the counter is raised only to a number an item holds.
 */
@Injectable()
export class EtimsItemsRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async ensureIndexes(): Promise<void> {
    await this.items().createIndex({ sequence: 1, seq: 1 }, { unique: true });
    await this.items().createIndex({ sequence: 1, itemCd: 1 }, { unique: true });
  }

  /**
   * The item of `key` in the branch, allocated with the branch's next number the first time it is
   * asked for (two at once: one number, one item); its list price is the latest seen.
   */
  async allocate(
    sequence: string,
    key: string,
    kind: Pick<EtimsItem, 'itemTyCd' | 'pkgUnitCd' | 'qtyUnitCd' | 'listPrice'>,
  ): Promise<EtimsItem> {
    const _id = `${sequence}|${key}`;
    const counterId = `items:${sequence}`;
    for (let attempt = 0; attempt < 1000; attempt++) {
      const existing = (await this.items().findOneAndUpdate(
        { _id },
        { $set: { listPrice: kind.listPrice } },
        { returnDocument: 'after' },
      )) as EtimsItem | null;
      if (existing) return existing;
      const counter = await this.counters().findOne({ _id: counterId });
      const seq = (counter?.last ?? 0) + 1;
      const item: EtimsItem = {
        _id,
        sequence,
        key,
        seq,
        itemCd: itemCodeOf(kind.itemTyCd, kind.pkgUnitCd, kind.qtyUnitCd, seq),
        ...kind,
        registered: null,
        registering: null,
        createdAt: new Date(),
      };
      try {
        await this.items().insertOne(item);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const holder = await this.items().findOne({ sequence, seq }, { projection: { _id: 1 } });
        if (holder) await this.raise(counterId, seq);
        continue;
      }
      await this.raise(counterId, seq);
      return item;
    }
    throw new Error(`No eTIMS item code could be taken for ${key}`);
  }

  private async raise(counterId: string, held: number): Promise<void> {
    const raise = () =>
      this.counters().updateOne({ _id: counterId }, { $max: { last: held } }, { upsert: true });
    try {
      await raise();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await raise();
    }
  }

  byCode(sequence: string, itemCd: string): Promise<EtimsItem | null> {
    return this.items().findOne({ sequence, itemCd });
  }

  byKey(sequence: string, key: string): Promise<EtimsItem | null> {
    return this.items().findOne({ _id: `${sequence}|${key}` });
  }

  /** Takes the item to register it until `until`; null when another attempt has it now. */
  claim(id: string, by: string, now: Date, until: Date): Promise<EtimsItem | null> {
    const filter: mongo.Filter<EtimsItem> = {
      _id: id,
      $or: [{ registering: null }, { 'registering.until': { $lte: now } }],
    };
    return this.items().findOneAndUpdate(
      filter,
      { $set: { registering: { by, until } } },
      { returnDocument: 'after' },
    ) as Promise<EtimsItem | null>;
  }

  /** KRA registered it so (kept only while `by` still held it); the claim is let go either way. */
  async registered(id: string, by: string, registration: EtimsItemRegistration): Promise<boolean> {
    const res = await this.items().updateOne(
      { _id: id, 'registering.by': by },
      { $set: { registered: registration, registering: null } },
    );
    return res.modifiedCount === 1;
  }

  async release(id: string, by: string): Promise<void> {
    await this.items().updateOne(
      { _id: id, 'registering.by': by },
      { $set: { registering: null } },
    );
  }

  private items(): mongo.Collection<EtimsItem> {
    return this.connection.db!.collection<EtimsItem>(ETIMS_ITEMS_COLLECTION, {
      writeConcern: MONEY_WRITE_CONCERN,
    });
  }

  private counters(): mongo.Collection<Counter> {
    return this.connection.db!.collection<Counter>(ETIMS_COUNTERS_COLLECTION, {
      writeConcern: MONEY_WRITE_CONCERN,
    });
  }
}
