import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { MONEY_WRITE_CONCERN } from '../common/write-concern';
import {
  ETIMS_DOCUMENTS_COLLECTION,
  type EtimsDocument,
  type EtimsSignature,
  type EtimsState,
} from './etims-documents.repository';

/** A signature a clerk copied from KRA's portal, with who did it. */
export interface EnteredEtimsSignature extends Omit<EtimsSignature, 'totRcptNo' | 'intrlData'> {
  totRcptNo: number | null;
  intrlData: string | null;
  enteredBy: { id: string; name: string };
  enteredAt: Date;
}

/** What the daily summary reads of a document. */
export type EtimsSummaryRow = Pick<EtimsDocument, 'kind' | 'state'> & {
  input: { at: Date };
  request: Pick<EtimsDocument['request'], 'totAmt'> & Record<string, number>;
};

const TAX_FIELDS = ['A', 'B', 'C', 'D', 'E'].flatMap((t) => [
  `request.taxblAmt${t}`,
  `request.taxAmt${t}`,
]);

/**
 * The back office's reads of `etims_documents` (the queue's collection, written by
 * EtimsDocumentsRepository) and the one write it makes: a signature copied by hand. The list reads
 * by `{ state, input.at, invcNo }` (newest tax point first), the summary by `{ input.at }`. A list
 * of several states narrowed by days (`$in` and a range) is served by MongoDB from the first; on
 * SecantusDB, which plans by rules, it is a scan (the tabs of one state are not).
 */
@Injectable()
export class EtimsOfficeRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async ensureIndexes(): Promise<void> {
    // The queue by state (and days), newest tax point first.
    await this.documents().createIndex({ state: 1, 'input.at': -1, invcNo: -1 });
    // The summary's days, whatever the state.
    await this.documents().createIndex({ 'input.at': 1 });
  }

  /** A page of the documents in `states` whose tax point is in [since, before), newest first. */
  async page(
    states: EtimsState[],
    range: { since?: Date; before?: Date },
    skip: number,
    limit: number,
  ): Promise<{ documents: EtimsDocument[]; total: number }> {
    const filter = this.filter(states, range);
    const [documents, total] = await Promise.all([
      this.documents()
        .find(filter)
        .sort({ 'input.at': -1, invcNo: -1 })
        .skip(skip)
        .limit(limit)
        .toArray(),
      this.documents().countDocuments(filter),
    ]);
    return { documents, total };
  }

  /** Every document whose tax point is in [since, before): its kind, state and tax breakdown. */
  summaryRows(since: Date, before: Date): Promise<EtimsSummaryRow[]> {
    return this.documents()
      .find({ 'input.at': { $gte: since, $lt: before } } as mongo.Filter<EtimsDocument>, {
        projection: {
          _id: 0,
          kind: 1,
          state: 1,
          'input.at': 1,
          'request.totAmt': 1,
          ...Object.fromEntries(TAX_FIELDS.map((f) => [f, 1])),
        },
      })
      .toArray() as unknown as Promise<EtimsSummaryRow[]>;
  }

  /**
   * Saves a signature a clerk copied from KRA's portal on a document that waits for one
   * (`pending`); false when it is not pending any more (signed meanwhile, or resent).
   */
  async signByHand(
    source: string,
    signature: EnteredEtimsSignature,
    signedAt: Date,
    message: string,
  ): Promise<boolean> {
    const res = await this.documents().updateOne(
      { _id: source, state: 'pending' },
      {
        $set: {
          state: 'signed',
          signature: signature as unknown as EtimsSignature,
          signedAt,
          lastMessage: message,
          updatedAt: signature.enteredAt,
        },
      },
    );
    return res.modifiedCount === 1;
  }

  private filter(
    states: EtimsState[],
    { since, before }: { since?: Date; before?: Date },
  ): mongo.Filter<EtimsDocument> {
    const at: Record<string, Date> = {};
    if (since) at.$gte = since;
    if (before) at.$lt = before;
    return {
      // One state is an equality: with a range of days it stays one range on the index.
      state: states.length === 1 ? states[0] : { $in: states },
      ...(since || before ? { 'input.at': at } : {}),
    } as mongo.Filter<EtimsDocument>;
  }

  /** With the money writes' concern, as the queue writes them: a signature is a tax record. */
  private documents(): mongo.Collection<EtimsDocument> {
    return this.connection.db!.collection<EtimsDocument>(ETIMS_DOCUMENTS_COLLECTION, {
      writeConcern: MONEY_WRITE_CONCERN,
    });
  }
}
