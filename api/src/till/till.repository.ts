import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import { TILL_PIN_MAX_TRIES } from '@spc/shared-contracts';
import { TillPin } from './schemas/till-pin.schema';
import { TillSession } from './schemas/till-session.schema';

/** A till session as the till reads it (plain, its id a string). */
export type TillSessionRecord = TillSession & { _id: string };

type LeanSession = TillSession & { _id: Types.ObjectId };
const record = (d: LeanSession | null): TillSessionRecord | null =>
  d ? { ...d, _id: d._id.toHexString() } : null;

/** The till's sessions and PINs: each method one atomic operation. */
@Injectable()
export class TillRepository {
  constructor(
    @InjectModel(TillSession.name) private readonly sessions: Model<TillSession>,
    @InjectModel(TillPin.name) private readonly pins: Model<TillPin>,
  ) {}

  /** Opens a session; a second open one of the same clerk meets the partial unique index. */
  async open(
    session: Omit<
      TillSession,
      'closedAt' | 'countedCash' | 'reopened' | 'state' | 'working' | 'closingAt'
    >,
  ) {
    const doc = await this.sessions.create({
      ...session,
      state: 'open',
      closedAt: null,
      countedCash: null,
      reopened: [],
    });
    return record(doc.toObject() as LeanSession)!;
  }

  async findById(id: string): Promise<TillSessionRecord | null> {
    if (!Types.ObjectId.isValid(id)) return null;
    return record(await this.sessions.findById(id).lean<LeanSession>());
  }

  async openOf(staffId: string): Promise<TillSessionRecord | null> {
    return record(await this.sessions.findOne({ staffId, state: 'open' }).lean<LeanSession>());
  }

  async ofDay(day: string, staffId?: string): Promise<TillSessionRecord[]> {
    const docs = await this.sessions
      .find({ day, ...(staffId ? { staffId } : {}) })
      .sort({ openedAt: 1 })
      .limit(500)
      .lean<LeanSession[]>();
    return docs.map((d) => record(d)!);
  }

  /**
   * Starts a piece of work (a sale, a void...) in an open session not being closed (a close begun
   * before `closingStale` no longer counts); null when the session is not so (or not this clerk's).
   */
  async beginWork(
    id: string,
    work: { id: string; at: Date },
    closingStale: Date,
    staffId?: string,
  ): Promise<TillSessionRecord | null> {
    if (!Types.ObjectId.isValid(id)) return null;
    return record(
      await this.sessions
        .findOneAndUpdate(
          {
            _id: id,
            state: 'open',
            closingAt: { $not: { $gt: closingStale } },
            ...(staffId ? { staffId } : {}),
          },
          { $push: { working: work } },
          { new: true },
        )
        .lean<LeanSession>(),
    );
  }

  async endWork(id: string, workId: string): Promise<void> {
    await this.sessions.updateOne({ _id: id }, { $pull: { working: { id: workId } } });
  }

  /** Marks an open session as closing (no new work starts); false when it is not open. */
  async markClosing(id: string, at: Date | null): Promise<boolean> {
    const res = await this.sessions.updateOne(
      { _id: id, state: 'open' },
      { $set: { closingAt: at } },
    );
    return res.matchedCount === 1;
  }

  /**
   * Closes an open session with the cash counted, once no work begun after `workStale` is in it;
   * null when it was not open (closed once) or work is still in it.
   */
  async close(
    id: string,
    countedCash: number,
    at: Date,
    workStale: Date,
  ): Promise<TillSessionRecord | null> {
    return record(
      await this.sessions
        .findOneAndUpdate(
          { _id: id, state: 'open', 'working.at': { $not: { $gt: workStale } } },
          { $set: { state: 'closed', closedAt: at, countedCash, closingAt: null, working: [] } },
          { new: true },
        )
        .lean<LeanSession>(),
    );
  }

  /** Opens a closed session again (its clerk's open one, if any, meets the unique index). */
  async reopen(id: string, byName: string, at: Date): Promise<TillSessionRecord | null> {
    return record(
      await this.sessions
        .findOneAndUpdate(
          { _id: id, state: 'closed' },
          {
            $set: { state: 'open', closedAt: null, countedCash: null, closingAt: null },
            $push: { reopened: { byName, at } },
          },
          { new: true },
        )
        .lean<LeanSession>(),
    );
  }

  findPin(staffId: string): Promise<TillPin | null> {
    return this.pins.findById(staffId).lean<TillPin>();
  }

  /** Sets (or replaces) a PIN, unlocked. */
  async setPin(staffId: string, hash: string): Promise<void> {
    await this.pins.updateOne(
      { _id: staffId },
      { $set: { hash, failures: 0, setAt: new Date() } },
      { upsert: true },
    );
  }

  /**
   * One wrong try counted (two at once count twice): answers the tries made in a row, or null
   * when the PIN is locked (or was replaced) already.
   */
  async countWrongTry(staffId: string, hash: string): Promise<number | null> {
    const doc = await this.pins
      .findOneAndUpdate(
        { _id: staffId, hash, failures: { $lt: TILL_PIN_MAX_TRIES } },
        { $inc: { failures: 1 } },
        { new: true },
      )
      .lean<TillPin>();
    return doc ? doc.failures : null;
  }

  /** A right PIN clears the count, unless it locked meanwhile (answers false then). */
  async clearTries(staffId: string, hash: string): Promise<boolean> {
    const res = await this.pins.updateOne(
      { _id: staffId, hash, failures: { $lt: TILL_PIN_MAX_TRIES } },
      { $set: { failures: 0 } },
    );
    return res.matchedCount === 1;
  }
}
