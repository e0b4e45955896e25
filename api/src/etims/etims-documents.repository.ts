import { Injectable } from '@nestjs/common';
import { nextInSequence } from '../common/counters';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';
import { redactBuyer, registrarOf, type EtimsDocumentInput } from './etims-request';
import type { OscuSignature } from './oscu-client';
import type { OscuSalesRequest } from './oscu.types';

export const ETIMS_DOCUMENTS_COLLECTION = 'etims_documents';
export const ETIMS_COUNTERS_COLLECTION = 'etims_counters';

/**
 * `queued`: waiting its turn (due at `nextTryAt`; a retry after OSCU did not answer);
 * `sending`: one attempt (`sender`) has it under its lease; `signed`: KRA's signature is saved;
 * `failed`: KRA refused it (`lastCode`, `lastMessage`): a clerk fixes the data and resends;
 * `pending`: KRA had received its number before and gave no signature: a clerk copies it from
 * KRA's portal.
 */
export type EtimsState = 'queued' | 'sending' | 'signed' | 'failed' | 'pending';

/** What KRA gave a signed document, with the QR link printed on it. */
export interface EtimsSignature extends OscuSignature {
  /** KRA's receipt check page for this document (the QR code). */
  qrUrl: string;
}

/** One document to sign (`etims_documents`), keyed by its source. Never deleted: a tax record. */
export interface EtimsDocument {
  /** The source key (`order:<id>:sale`, `refund:<id>`, `invoice:<id>`). */
  _id: string;
  kind: EtimsDocumentInput['kind'];
  /** The branch's sequence of invoice numbers: `<PIN>/<bhfId>`. */
  sequence: string;
  /** The branch's gap-free number, given in the same write that inserted the document. */
  invcNo: number;
  /** A credit note's original: its source and number (0 and null on a sale). */
  original: string | null;
  orgInvcNo: number;
  orderId: string | null;
  trdInvcNo: string;
  /** The buyer named is a person (their PIN and name are erased with them). */
  personalBuyer: boolean;
  /** What was asked (kept so a clerk's fix rebuilds the request with the same number). */
  input: EtimsDocumentInput;
  /** The `saveTrnsSalesOsdc` request, as sent (every resend carries the same). */
  request: OscuSalesRequest;
  state: EtimsState;
  /**
   * A queued credit note set aside while its sale (`source`, its number `trdInvcNo`) is not signed:
   * KRA refuses a credit note against a sale it has not signed. Out of the line (the documents
   * after it go) until the sale is signed; null (or absent) otherwise.
   */
  waitsFor?: { source: string; trdInvcNo: string } | null;
  /** Attempts that reached an outcome (a send answered or not). */
  attempts: number;
  nextTryAt: Date;
  /** While `sending`: no other attempt takes it before this (renewed while it is sent). */
  leaseUntil: Date;
  sender: string | null;
  /** KRA's last result code (`000`, `994`, `910`…); null when OSCU gave no answer. */
  lastCode: string | null;
  lastMessage: string | null;
  signature: EtimsSignature | null;
  createdAt: Date;
  updatedAt: Date;
  signedAt: Date | null;
  /**
   * On a sale: what its credit notes hold of it, each reserved here (one conditional update)
   * before the credit note is inserted, so two at once never credit more than the sale.
   */
  credits?: CreditReservation[];
  /** On a sale: the sum of `credits`' cents, kept beside them (the bound's filter reads it). */
  credited?: number;
}

/** A credit note's KES cents held against its sale, by the credit note's source. */
export interface CreditReservation {
  source: string;
  cents: number;
}

interface Counter {
  /** The sequence (`<PIN>/<bhfId>`). */
  _id: string;
  /** The highest number known to be held by a document (a hint: never above the highest held). */
  last: number;
}

export type NewEtimsDocument = Omit<EtimsDocument, 'invcNo' | 'request'>;

/** The states a document is still to be sent in: the head of the line is the lowest number of these. */
const IN_LINE: EtimsState[] = ['queued', 'sending'];

/**
 * The `etims_documents` collection and its per-branch counters (`etims_counters`): the one place
 * that reads or writes them.
 *
 * Numbers are gap-free without a transaction: a document is inserted already holding the number
 * after the counter's, under a unique index on `(sequence, invcNo)`, so a number exists exactly
 * when a document holds it. The counter is only raised after a document holds the number (by the
 * inserter, or by whoever ran into that number), so it never runs ahead of the documents; a crash
 * between the insert and the raise leaves it behind, and the next insert, finding the number held,
 * raises it and takes the next. A source asked for twice runs into the `_id` and allocates nothing.
 */
@Injectable()
export class EtimsDocumentsRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async ensureIndexes(): Promise<void> {
    await this.documents().createIndex({ sequence: 1, invcNo: 1 }, { unique: true });
    // The head of each branch's line, and the back office's queue by state.
    await this.documents().createIndex({ sequence: 1, state: 1, invcNo: 1 });
    await this.documents().createIndex({ state: 1, invcNo: 1 });
    await this.documents().createIndex({ orderId: 1 });
    // A person's erasure finds the documents they registered (a clerk's credit notes).
    await this.documents().createIndex({ 'input.by.id': 1 }, { sparse: true });
    // The credit notes against a sale (never more than the sale; an invoice's PDF prints them).
    await this.documents().createIndex({ original: 1 });
    // The credit notes set aside for a sale, put back in line when it is signed.
    await this.documents().createIndex({ 'waitsFor.source': 1 });
    // The signed documents by their last change: the stock movements' sweep (etims-stock.service).
    await this.documents().createIndex({ sequence: 1, state: 1, updatedAt: 1 });
  }

  /**
   * Inserts the document with the next number of its sequence, unless its source has one (then
   * answers that one, `created` false, and no number is taken). `orgInvcNo` is given for a credit
   * note; `build` makes the request once the number is known.
   */
  async insertNumbered(
    doc: NewEtimsDocument,
    build: (invcNo: number) => OscuSalesRequest,
  ): Promise<{ document: EtimsDocument; created: boolean }> {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const existing = await this.find(doc._id);
      if (existing) return { document: existing, created: false };
      const counter = await this.counters().findOne({ _id: doc.sequence });
      const invcNo = (counter?.last ?? 0) + 1;
      const document: EtimsDocument = { ...doc, invcNo, request: build(invcNo) };
      try {
        await this.documents().insertOne(document);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        // The source has its document now (answered on the next turn), or the number is held by
        // another document: the counter is behind it. Raised only to a number a document holds.
        const holder = await this.documents().findOne(
          { sequence: doc.sequence, invcNo },
          { projection: { _id: 1 } },
        );
        if (holder) await this.raise(doc.sequence, invcNo);
        continue;
      }
      await this.raise(doc.sequence, invcNo);
      return { document, created: true };
    }
    throw new Error(`No eTIMS number could be taken for ${doc._id}`);
  }

  /** Raises the sequence's counter to `held` (a number a document holds); never lowers it. */
  private async raise(sequence: string, held: number): Promise<void> {
    const raise = () =>
      this.counters().updateOne({ _id: sequence }, { $max: { last: held } }, { upsert: true });
    try {
      await raise();
    } catch (error) {
      // Two first raises of a sequence upserting at once: the counter exists now.
      if (!isDuplicateKeyError(error)) throw error;
      await raise();
    }
  }

  /**
   * The next of a document family's own numbers (`trade:<key>`: a booking's deposits -D1, -D2…),
   * one per call in the order asked, whatever runs at once.
   */
  async next(key: string): Promise<number> {
    return nextInSequence(
      this.counters() as unknown as mongo.Collection<mongo.Document>,
      `trade:${key}`,
      'last',
    );
  }

  find(source: string): Promise<EtimsDocument | null> {
    return this.documents().findOne({ _id: source });
  }

  /**
   * The next document of the sequence's line: its lowest number still to be sent, but for a credit
   * note set aside for its sale (`waitsFor`); null when none.
   */
  async head(sequence: string): Promise<EtimsDocument | null> {
    const [first] = await this.documents()
      .find({ sequence, state: { $in: IN_LINE }, waitsFor: null })
      .sort({ invcNo: 1 })
      .limit(1)
      .toArray();
    return first ?? null;
  }

  /**
   * Marks the document `sending` by `sender` until `leaseUntil`: a queued one due by `now`, or one
   * whose sender's lease lapsed (it crashed, maybe after KRA signed it: the same number is sent
   * again and answered as a duplicate). Null when it is not this attempt's to send.
   */
  async claim(
    doc: EtimsDocument,
    sender: string,
    now: Date,
    clock: Date,
    leaseUntil: Date,
  ): Promise<EtimsDocument | null> {
    const filter: mongo.Filter<EtimsDocument> =
      doc.state === 'sending'
        ? { _id: doc._id, state: 'sending', sender: doc.sender, leaseUntil: { $lte: clock } }
        : { _id: doc._id, state: 'queued', nextTryAt: { $lte: now } };
    return this.documents().findOneAndUpdate(
      filter,
      { $set: { state: 'sending', sender, leaseUntil, updatedAt: clock } },
      { returnDocument: 'after' },
    ) as Promise<EtimsDocument | null>;
  }

  /**
   * Sets a queued credit note aside until its sale `original` is signed (out of the line); false
   * when it is not queued any more.
   */
  async setAside(
    source: string,
    original: NonNullable<EtimsDocument['waitsFor']>,
    at: Date,
  ): Promise<boolean> {
    const res = await this.documents().updateOne(
      { _id: source, state: 'queued' },
      { $set: { waitsFor: original, updatedAt: at } },
    );
    return res.modifiedCount === 1;
  }

  /** The credit notes set aside for `original` back in line, due at `at`; answers how many. */
  async release(original: string, at: Date): Promise<number> {
    const res = await this.documents().updateMany(
      { 'waitsFor.source': original, state: 'queued' },
      { $set: { waitsFor: null, nextTryAt: at, updatedAt: at } },
    );
    return res.modifiedCount;
  }

  /** Lengthens the lease of a document `sender` is sending; false when it is not any more. */
  async renew(source: string, sender: string, leaseUntil: Date): Promise<boolean> {
    const res = await this.documents().updateOne(
      { _id: source, state: 'sending', sender },
      { $set: { leaseUntil } },
    );
    return res.matchedCount === 1;
  }

  /** What became of `sender`'s attempt; false when the attempt no longer had it. */
  async settle(
    source: string,
    sender: string,
    at: Date,
    change: Pick<EtimsDocument, 'state' | 'lastCode' | 'lastMessage'> &
      Partial<Pick<EtimsDocument, 'signature' | 'signedAt' | 'nextTryAt'>>,
  ): Promise<boolean> {
    const res = await this.documents().updateOne(
      { _id: source, state: 'sending', sender },
      {
        $set: {
          ...change,
          lastMessage: change.lastMessage?.slice(0, 1000) ?? null,
          sender: null,
          leaseUntil: at,
          updatedAt: at,
        },
        $inc: { attempts: 1 },
      },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Back in line (a clerk's resend of a failed or pending document), with its request rebuilt
   * when given; false when it was not in one of `from` any more.
   */
  async requeue(
    source: string,
    from: EtimsState[],
    at: Date,
    rebuilt?: Pick<EtimsDocument, 'input' | 'request' | 'personalBuyer' | 'trdInvcNo'>,
  ): Promise<boolean> {
    const res = await this.documents().updateOne(
      { _id: source, state: { $in: from } },
      { $set: { ...rebuilt, state: 'queued', nextTryAt: at, leaseUntil: at, updatedAt: at } },
    );
    return res.modifiedCount === 1;
  }

  /** Documents in these states, oldest number first (the back office's queue). */
  list(states: EtimsState[], limit = 200): Promise<EtimsDocument[]> {
    return this.documents()
      .find({ state: { $in: states } })
      .sort({ invcNo: 1 })
      .limit(limit)
      .toArray();
  }

  /** Which of these sources have a document. */
  async existing(sources: readonly string[]): Promise<Set<string>> {
    if (!sources.length) return new Set();
    const docs = await this.documents()
      .find({ _id: { $in: [...sources] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(docs.map((d) => d._id));
  }

  forOrders(orderIds: readonly string[]): Promise<EtimsDocument[]> {
    if (!orderIds.length) return Promise.resolve([]);
    return this.documents()
      .find({ orderId: { $in: [...orderIds] } })
      .toArray();
  }

  /** The branch's documents signed (or changed after being signed) from `since`, in that order. */
  signedSince(sequence: string, since: Date, limit: number): Promise<EtimsDocument[]> {
    return this.documents()
      .find({ sequence, state: 'signed', updatedAt: { $gte: since } })
      .sort({ updatedAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /** The documents crediting `source` (an invoice's or a sale's credit notes), oldest first. */
  creditsOf(source: string): Promise<EtimsDocument[]> {
    return this.documents().find({ original: source }).sort({ invcNo: 1 }).toArray();
  }

  /**
   * Holds `cents` of `original` (whose total is `total` cents) for the credit note `source`, in one
   * conditional update: only while what its credit notes hold stays within its total and `source`
   * holds nothing yet. Answers false when it would go over or `source` holds its part already.
   * The sum is a field kept beside the reservations (`$sum` over an array's field inside `$expr`
   * reads 0 on SecantusDB, the test database, so the filter does not add them up itself).
   */
  async reserveCredit(
    original: string,
    source: string,
    cents: number,
    total: number,
  ): Promise<boolean> {
    const reserved = await this.documents().findOneAndUpdate(
      { _id: original, 'credits.source': { $ne: source }, credited: { $lte: total - cents } },
      { $push: { credits: { source, cents } }, $inc: { credited: cents } },
      { projection: { _id: 1 } },
    );
    return reserved !== null;
  }

  /**
   * A sale's reservations started (before its first credit note): its credit notes queued before
   * reservations existed, as they are. Written once: a sale that has them keeps them.
   */
  async seedCredits(original: string): Promise<void> {
    const credits = (await this.creditsOf(original)).map((d) => ({
      source: d._id,
      cents: Math.round(d.request.totAmt * 100),
    }));
    await this.documents().updateOne(
      { _id: original, credits: { $exists: false } },
      { $set: { credits, credited: credits.reduce((sum, c) => sum + c.cents, 0) } },
    );
  }

  /**
   * A person buyer's PIN and name out of a document (an erasure), KRA's words quoting them (a
   * refusal of the PIN) included: the sums and KRA's signature stay. Read and written on the same
   * message, so a refusal saved meanwhile is redacted on the next turn.
   */
  async forgetBuyer(source: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.find(source);
      if (!doc) return;
      const res = await this.documents().updateOne(
        { _id: source, lastMessage: doc.lastMessage },
        {
          $set: {
            'input.buyer': null,
            'input.problem': doc.input.problem ? redactBuyerOf(doc, doc.input.problem) : null,
            'request.custTin': null,
            'request.custNm': null,
            'request.receipt.custTin': null,
            lastMessage: doc.lastMessage ? redactBuyerOf(doc, doc.lastMessage) : null,
            personalBuyer: false,
          },
        },
      );
      if (res.matchedCount === 1) return;
    }
    throw new Error(`The buyer of eTIMS ${source} could not be erased: it kept changing`);
  }

  /** An organisation buyer's name with a person's name in it replaced (an erasure). */
  async renameBuyer(source: string, name: string): Promise<void> {
    await this.documents().updateOne(
      { _id: source },
      { $set: { 'input.buyer.name': name, 'request.custNm': name } },
    );
  }

  /**
   * A person's registrar id and name out of the documents they registered (an erasure): out of
   * what was asked (`input.by`) on every one, and out of the request of those KRA never had (failed,
   * or queued and never tried), which say `system` instead. A document KRA has or may have (signed,
   * pending, being sent, or queued after a send OSCU did not answer) keeps its request: that is the
   * content KRA holds under its number, and every resend of the number must carry the same.
   */
  async forgetRegistrar(personId: string): Promise<void> {
    const system = registrarOf(null);
    await this.documents().updateMany(
      {
        'input.by.id': personId,
        $or: [{ state: 'failed' }, { state: 'queued', attempts: 0 }],
      },
      {
        $set: {
          'input.by': null,
          'request.regrId': system.regrId,
          'request.regrNm': system.regrNm,
          'request.modrId': system.modrId,
          'request.modrNm': system.modrNm,
        },
      },
    );
    await this.documents().updateMany({ 'input.by.id': personId }, { $set: { 'input.by': null } });
  }

  /**
   * With the money writes' concern: a number or a signature a failover rolled back would be given
   * again to another document, which KRA would answer with the first one's signature.
   */
  private documents(): mongo.Collection<EtimsDocument> {
    return this.connection.db!.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION, {
      writeConcern: MONEY_WRITE_CONCERN,
    });
  }

  private counters(): mongo.Collection<Counter> {
    return this.connection.db!.collection<Counter>(ETIMS_COUNTERS_COLLECTION, {
      writeConcern: MONEY_WRITE_CONCERN,
    });
  }
}

/** `text` without the buyer a document names (its input's, and its request's as sent). */
export function redactBuyerOf(doc: EtimsDocument, text: string): string {
  return redactBuyer(text, doc.input.buyer, { tin: doc.request.custTin, name: doc.request.custNm });
}
