import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type FilterQuery, type Model } from 'mongoose';
import type { StockLevel } from '../catalog/catalog.types';
import { Product } from '../catalog/schemas/product.schema';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { StockMovement } from './schemas/stock-movement.schema';
import {
  openingUpdate,
  shownQuantity,
  stockUpdate,
  type MovementMeta,
  type PendingMovement,
  type StockChange,
} from './stock-ledger';

/** A movement of the ledger as the API answers it. */
export type StockMovementView = PendingMovement & { productId: string; productName: string };

/** What the ledger reads of a product document after a stock change (the rest comes along). */
export interface LedgerDoc {
  _id: Types.ObjectId;
  productName: string;
  productQuantity?: number;
  stockSeq?: number;
  /** Stock taken below zero by a gate sale, until counted again (issue 47). */
  stockShort?: boolean;
  pendingMovements?: PendingMovement[];
}

/**
 * The stock a product document shows shoppers, with the number of its last movement: none while
 * it is flagged short (a gate sale took it below zero, issue 47) until it is counted again.
 */
export function stockLevelOf(doc: LedgerDoc): StockLevel {
  return { quantity: shownQuantity(doc), seq: doc.stockSeq ?? 0 };
}

/**
 * The stock ledger: every change of a product's stock is one conditional update of the product
 * (the database applies it atomically, so its condition holds whatever runs beside it) that also
 * appends the movement describing it; the movement is then copied to `stock_movements`. Also the
 * ledger's reads and the reconciler's passes.
 */
@Injectable()
export class StockLedgerRepository {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(StockMovement.name) private readonly movements: Model<StockMovement>,
  ) {}

  /** Movements of these orders or made by this account (an erasure's), a cursor. */
  movementsOfPerson(orderIds: string[], by: string | null) {
    const or: FilterQuery<StockMovement>[] = [{ orderId: { $in: orderIds } }];
    if (by) or.push({ 'by.id': by });
    return this.movements
      .find({ $or: or })
      .select({ _id: 1, note: 1, by: 1 })
      .lean<Pick<StockMovement, '_id' | 'note' | 'by'>[]>()
      .cursor();
  }

  /** Rewrites movements' notes and who made them (an erasure): the figures stay. */
  async rewriteMovements(
    changes: { id: string; set: { note?: string; 'by.fullName'?: string } }[],
  ): Promise<void> {
    if (!changes.length) return;
    await this.movements.bulkWrite(
      changes.map((c) => ({ updateOne: { filter: { _id: c.id }, update: { $set: c.set } } })),
      { ordered: false },
    );
  }

  /**
   * A person's stock change with its movement: by a signed amount (never below 0: null when the
   * stock is short, or the product gone) or to an amount. Answers the product document and the
   * movement (null when the stock was already that).
   */
  async adjustStock(
    id: string,
    change: StockChange,
    meta: MovementMeta,
  ): Promise<{ doc: LedgerDoc; movement: StockMovementView | null } | null> {
    const short = 'by' in change && change.by < 0 ? { productQuantity: { $gte: -change.by } } : {};
    let movementId = '';
    const doc = await this.changeStock({ _id: new Types.ObjectId(id), ...short }, change, meta, {
      onMovementId: (movement) => (movementId = movement),
    });
    if (!doc) return null;
    const entry = (doc.pendingMovements ?? []).find((m) => m._id === movementId);
    return {
      doc,
      movement: entry ? { ...entry, productId: id, productName: doc.productName } : null,
    };
  }

  /** Whether a movement of this order took stock below zero (`short`, issue 47), copied or waiting. */
  async orderWentShort(orderId: string): Promise<boolean> {
    if (await this.movements.exists({ orderId, short: true })) return true;
    return !!(await this.products.collection.findOne(
      { pendingMovements: { $elemMatch: { orderId, short: true } } },
      { projection: { _id: 1 } },
    ));
  }

  /** A page of a product's movements, newest first, optionally of some reasons only. */
  async movementsOf(
    productId: string,
    reasons: string[] | undefined,
    skip: number,
    limit: number,
  ): Promise<{ items: StockMovementView[]; total: number }> {
    const filter: FilterQuery<StockMovement> = {
      productId,
      ...(reasons?.length ? { reason: { $in: reasons } } : {}),
    };
    const [items, total] = await Promise.all([
      this.movements
        .find(filter)
        .sort({ seq: -1 })
        .skip(skip)
        .limit(limit)
        .lean<StockMovementView[]>(),
      this.movements.countDocuments(filter),
    ]);
    return { items, total };
  }

  /**
   * Gives every product without a ledger its opening balance (its stock now), each in one atomic
   * update that only a product without one matches: running it again, or in two instances at
   * once, adds nothing. Answers how many were opened.
   */
  async openLedgers(): Promise<number> {
    const res = await this.products.collection.updateMany(
      { ledgerSince: { $exists: false } },
      openingUpdate(new Date()),
    );
    return res.modifiedCount;
  }

  /**
   * Copies to the ledger the movements waiting in product documents (older than `before` when
   * given): what a crash between a stock change and its copy left. Answers how many it copied.
   */
  async flushPending(before?: Date): Promise<number> {
    const filter = before
      ? { 'pendingMovements.at': { $lt: before } }
      : { 'pendingMovements.0': { $exists: true } };
    const cursor = this.products.collection.find(filter, {
      projection: { productName: 1, pendingMovements: 1 },
      batchSize: 500,
    });
    let copied = 0;
    let batch: { _id: Types.ObjectId; productName: string; entries: PendingMovement[] }[] = [];
    const copyBatch = async () => {
      const rows = batch.flatMap((doc) =>
        doc.entries.map((entry) => ({
          ...entry,
          productId: doc._id.toString(),
          productName: doc.productName,
        })),
      );
      batch = [];
      if (!rows.length) return;
      await this.insertMovementRows(rows);
      const byProduct = new Map<string, string[]>();
      for (const row of rows)
        byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row._id]);
      await this.products.collection.bulkWrite(
        [...byProduct].map(([id, ids]) => ({
          updateOne: {
            filter: { _id: new Types.ObjectId(id) },
            update: { $pull: { pendingMovements: { _id: { $in: ids } } } } as never,
          },
        })),
        { ordered: false },
      );
      copied += rows.length;
    };
    for await (const doc of cursor) {
      const entries = ((doc.pendingMovements ?? []) as PendingMovement[]).filter(
        (m) => !before || m.at < before,
      );
      batch.push({
        _id: doc._id as Types.ObjectId,
        productName: doc.productName as string,
        entries,
      });
      if (batch.length >= 500) await copyBatch();
    }
    await copyBatch();
    return copied;
  }

  /**
   * One stock change with its movement in one atomic update (see `stockUpdate`), then the
   * movement's copy to the ledger (by default the movement just made; `copy` picks more). Null when
   * the filter matched nothing. A crash between the two leaves the movement waiting in the product,
   * where the ledger's reconciler finds and copies it.
   */
  async changeStock<T extends LedgerDoc = LedgerDoc>(
    filter: Record<string, unknown>,
    change: StockChange,
    meta: MovementMeta,
    extra: {
      set?: Record<string, unknown>;
      computed?: Record<string, unknown>;
      copy?: (m: PendingMovement) => boolean;
      onMovementId?: (id: string) => void;
    } = {},
  ): Promise<T | null> {
    const { pipeline, movementId } = stockUpdate(change, meta, extra);
    extra.onMovementId?.(movementId);
    const doc = (await this.products.collection.findOneAndUpdate(filter, pipeline, {
      returnDocument: 'after',
      projection: { imageKeys: 0, searchText: 0, reservations: 0, restockedFor: 0 },
    })) as T | null;
    if (!doc) return null;
    const pick = extra.copy ?? ((m: PendingMovement) => m._id === movementId);
    await this.copyMovements(doc._id, doc.productName, (doc.pendingMovements ?? []).filter(pick));
    return doc;
  }

  /**
   * Copies movements to the ledger under their own ids (a copy already made is refused as a
   * duplicate, so a retry counts once), then removes them from the product together with `pull`.
   * True when the product changed.
   */
  async copyMovements(
    productId: Types.ObjectId | string,
    productName: string,
    entries: PendingMovement[],
    pull: Record<string, unknown> = {},
  ): Promise<boolean> {
    const id = productId.toString();
    await this.insertMovements(id, productName, entries);
    if (!entries.length && !Object.keys(pull).length) return false;
    const res = await this.products.collection.updateOne(
      { _id: new Types.ObjectId(id) },
      {
        $pull: {
          ...(entries.length
            ? { pendingMovements: { _id: { $in: entries.map((m) => m._id) } } }
            : {}),
          ...pull,
        } as never,
      },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Copies movements of any products to the ledger in one write, under their own ids: a copy
   * already made (a retry, or the ledger's reconciler first) is left as it is.
   */
  async insertMovementRows(rows: StockMovementView[]): Promise<void> {
    if (!rows.length) return;
    try {
      await this.movements.collection.insertMany(rows as never[], { ordered: false });
    } catch (error) {
      // Copies made before (a retry) are refused as duplicates; anything else is a failure.
      const errors = (error as { writeErrors?: unknown[] }).writeErrors;
      const failed = Array.isArray(errors)
        ? !errors.every(isDuplicateKeyError)
        : !isDuplicateKeyError(error);
      if (failed) throw error;
    }
  }

  /** Copies movements to the ledger under their own ids; a copy already made is left as it is. */
  async insertMovements(
    productId: string,
    productName: string,
    entries: PendingMovement[],
  ): Promise<void> {
    for (const entry of entries) {
      try {
        await this.movements.collection.insertOne({ ...entry, productId, productName } as never);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }
}
