import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model } from 'mongoose';
import type { StoredBatchStatus } from '@spc/shared-contracts';
import { PROJECTION, toRecord, type BatchRecord, type LeanBatch } from './batch-record';
import { Batch } from './schemas/batch.schema';

/** The lists of batches: the staff's pages and the bookable batches the catalogue shows. */
@Injectable()
export class BatchListsRepository {
  constructor(@InjectModel(Batch.name) private readonly batches: Model<Batch>) {}

  /** A page of batches sorted by ready date (then by when they were made). */
  async list(
    filter: {
      productId?: string;
      status?: StoredBatchStatus;
      readyFrom?: string;
      readyTo?: string;
      /** Growing with something left to book (`Sold out` is growing with nothing left). */
      bookable?: boolean;
    },
    skip: number,
    limit: number,
  ): Promise<{ items: BatchRecord[]; total: number }> {
    const query: FilterQuery<Batch> = {};
    if (filter.productId) query.productId = filter.productId;
    if (filter.status) query.status = filter.status;
    if (filter.bookable !== undefined) query.available = filter.bookable ? { $gt: 0 } : 0;
    // Every filter a prefix of one index, a range last (SecantusDB plans no sort alone and one
    // range only): the ready dates, from the first day when none is given; the bookable ones by
    // what is left (their dates then only with a range of days given).
    if (filter.readyFrom || filter.readyTo)
      query.readyOn = {
        ...(filter.readyFrom ? { $gte: filter.readyFrom } : {}),
        ...(filter.readyTo ? { $lte: filter.readyTo } : {}),
      };
    else if (!filter.bookable) query.readyOn = { $gte: '' };
    const [docs, total] = await Promise.all([
      this.batches
        .find(query)
        .select(PROJECTION)
        .sort({ readyOn: 1, createdAt: 1 })
        .skip(skip)
        .limit(limit)
        .lean<LeanBatch[]>(),
      this.batches.countDocuments(query),
    ]);
    return { items: docs.map(toRecord), total };
  }

  /**
   * Growing batches ready after `today` with seedlings left to book, soonest first: of some
   * products (all when none given), and ready by `readyTo` when given.
   */
  async bookable(
    today: string,
    options: { productIds?: string[]; readyFrom?: string; readyTo?: string; limit?: number } = {},
  ): Promise<BatchRecord[]> {
    const from = options.readyFrom && options.readyFrom > today ? options.readyFrom : null;
    const docs = await this.batches
      .find({
        status: 'Growing',
        readyOn: {
          ...(from ? { $gte: from } : { $gt: today }),
          ...(options.readyTo ? { $lte: options.readyTo } : {}),
        },
        ...(options.productIds ? { productId: { $in: options.productIds } } : {}),
      })
      .select(PROJECTION)
      .sort({ readyOn: 1, createdAt: 1 })
      .limit(options.limit ?? 2000)
      .lean<LeanBatch[]>();
    return docs.map(toRecord).filter((b) => b.available > 0);
  }
}
