import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { OscuStockIoRequest } from './oscu.types';

export const ETIMS_STOCK_COLLECTION = 'etims_stock_moves';
export const ETIMS_STOCK_CURSORS_COLLECTION = 'etims_stock_cursors';

/** `queued`: to send (due at `nextTryAt`); `sent`: KRA has it; `failed`: KRA refused it (why kept). */
export type EtimsStockState = 'queued' | 'sent' | 'failed';

/**
 * One stock movement told to KRA (`etims_stock_moves`): a signed sale's goods out (keyed by the
 * sale's source) or a wholly credited sale's goods back (`return:<the sale's source>`). Never
 * deleted: what KRA was told.
 */
export interface EtimsStockMove {
  _id: string;
  sequence: string;
  /** The signed document this movement follows. */
  document: string;
  sarNo: number;
  request: OscuStockIoRequest;
  state: EtimsStockState;
  attempts: number;
  nextTryAt: Date;
  lastCode: string | null;
  lastMessage: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** How far the sweep has read the branch's signed documents (by their last change). */
interface StockCursor {
  _id: string;
  through: Date;
}

/** `etims_stock_moves` and `etims_stock_cursors`: the one place that reads or writes them. */
@Injectable()
export class EtimsStockRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async ensureIndexes(): Promise<void> {
    await this.moves().createIndex({ sequence: 1, sarNo: 1 }, { unique: true });
    await this.moves().createIndex({ sequence: 1, state: 1, sarNo: 1 });
  }

  /** Writes a movement once per key; false when it was written before. */
  async add(
    move: Omit<EtimsStockMove, 'attempts' | 'lastCode' | 'lastMessage' | 'sentAt'>,
  ): Promise<boolean> {
    try {
      await this.moves().insertOne({
        ...move,
        attempts: 0,
        lastCode: null,
        lastMessage: null,
        sentAt: null,
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const found = await this.moves()
      .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(found.map((m) => m._id));
  }

  /** The branch's movements due, lowest number first. */
  due(sequence: string, now: Date, limit: number): Promise<EtimsStockMove[]> {
    return this.moves()
      .find({ sequence, state: 'queued', nextTryAt: { $lte: now } })
      .sort({ sarNo: 1 })
      .limit(limit)
      .toArray();
  }

  async settle(
    id: string,
    change: Pick<EtimsStockMove, 'state' | 'lastCode' | 'lastMessage'> &
      Partial<Pick<EtimsStockMove, 'nextTryAt' | 'sentAt'>>,
  ): Promise<void> {
    await this.moves().updateOne(
      { _id: id, state: 'queued' },
      {
        $set: { ...change, lastMessage: change.lastMessage?.slice(0, 1000) ?? null },
        $inc: { attempts: 1 },
      },
    );
  }

  async cursor(sequence: string): Promise<Date | null> {
    const found = await this.cursors().findOne({ _id: sequence });
    return found?.through ?? null;
  }

  /** Moves the cursor forward only (two sweeps never take it back). */
  async advance(sequence: string, through: Date): Promise<void> {
    try {
      await this.cursors().updateOne(
        { _id: sequence, through: { $lt: through } },
        { $set: { through } },
        { upsert: true },
      );
    } catch (error) {
      // The cursor is already at or past `through` (the upsert met the existing one).
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  private moves() {
    return this.connection.collection<EtimsStockMove>(ETIMS_STOCK_COLLECTION);
  }

  private cursors() {
    return this.connection.collection<StockCursor>(ETIMS_STOCK_CURSORS_COLLECTION);
  }
}
