import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { CategoriesRepository } from './categories.repository';
import { Product } from './schemas/product.schema';
import { StockMovement } from './schemas/stock-movement.schema';
import {
  actorOf,
  openingUpdate,
  stockUpdate,
  type MovementMeta,
  type PendingMovement,
  type StockChange,
} from './stock-ledger';
import type { SnapshotProduct } from './read-model/catalogue-snapshot';
import type {
  CategoryRef,
  OrderableProduct,
  ProductFields,
  ProductImageFields,
  ProductView,
} from './catalog.types';

/** A movement of the ledger as the API answers it. */
export type StockMovementView = PendingMovement & { productId: string; productName: string };

type LeanProduct = Omit<Product, 'category' | 'pendingMovements'> & {
  _id: Types.ObjectId;
  category: Types.ObjectId;
  pendingMovements?: PendingMovement[];
};

/** A product's opening balance as it is written with the product (its first movement). */
function opening(quantity: number, by: MovementMeta['by'], at: Date, note: string) {
  return {
    stockSeq: 1,
    ledgerSince: at,
    pendingMovements: [
      {
        _id: new Types.ObjectId().toHexString(),
        seq: 1,
        reason: 'opening',
        change: quantity,
        quantityAfter: quantity,
        note,
        by: actorOf(by),
        orderId: null,
        purchaseNumber: null,
        at,
      } satisfies PendingMovement,
    ],
  };
}

/** The product record a write stores: what a person set plus what follows from it. */
type StoredFields = Omit<ProductFields, 'category'> & {
  category: Types.ObjectId;
  initialPrice: number;
  effectivePrice: number;
  searchText: string;
};

/** Effective price, initial price and search text always follow from the fields a person sets. */
function stored(fields: ProductFields): StoredFields {
  return {
    ...fields,
    category: new Types.ObjectId(fields.category),
    initialPrice: fields.price,
    offerPrice: fields.onOffer ? fields.offerPrice : 0,
    effectivePrice: fields.onOffer ? fields.offerPrice : fields.price,
    searchText: searchTextOf(fields.productName, fields.productDescription),
  };
}

/** Name and description lower-cased on two lines: a search (one line) never spans both. */
export function searchTextOf(name: string, description: string): string {
  return `${name}\n${description}`.toLowerCase();
}

/** What a product view (and the list's search) reads of a product document. */
const SNAPSHOT_FIELDS =
  'productName productDescription price initialPrice offerPrice onOffer effectivePrice ' +
  'productQuantity category productImage productImages createdAt updatedAt +searchText';

function toView(doc: LeanProduct, category: CategoryRef | undefined): ProductView {
  const categoryId = doc.category.toString();
  return {
    _id: doc._id.toString(),
    productName: doc.productName,
    productDescription: doc.productDescription ?? '',
    price: doc.price,
    initialPrice: doc.initialPrice ?? doc.price,
    offerPrice: doc.offerPrice ?? 0,
    onOffer: doc.onOffer === true,
    effectivePrice: doc.effectivePrice,
    productQuantity: doc.productQuantity ?? 0,
    // A category deleted under a product (a race the service narrows but cannot close) shows empty.
    category: category ?? { _id: categoryId, name: '' },
    productImage: doc.productImage ?? '',
    productImages: { ...(doc.productImages ?? {}) },
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
  };
}

function toOrderable(doc: LeanProduct): OrderableProduct {
  return {
    _id: doc._id.toString(),
    productName: doc.productName,
    productImage: doc.productImage ?? '',
    price: doc.price,
    offerPrice: doc.offerPrice ?? 0,
    onOffer: doc.onOffer === true,
    effectivePrice: doc.effectivePrice,
    productQuantity: doc.productQuantity ?? 0,
  };
}

/**
 * The only place that touches the products collection; returns plain views with the category
 * populated from the categories collection. Every change of stock is one conditional update, which
 * the database applies atomically: its condition (enough stock, no reservation of this order yet,
 * ...) holds when the change is made, whatever runs beside it in this or another instance.
 */
@Injectable()
export class ProductsRepository {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(StockMovement.name) private readonly movements: Model<StockMovement>,
    private readonly categories: CategoriesRepository,
  ) {}

  /** An id for a product about to be created, so its images can be stored under it first. */
  newId(): string {
    return new Types.ObjectId().toString();
  }

  /** Creates the product with its opening balance movement (its stock as created). */
  async create(
    id: string,
    fields: ProductFields,
    image: ProductImageFields | undefined,
    by?: MovementMeta['by'],
  ): Promise<ProductView> {
    const ledger = opening(
      fields.productQuantity,
      by,
      new Date(),
      'Stock when the product was added',
    );
    const doc = await this.products.create({ _id: id, ...stored(fields), ...image, ...ledger });
    await this.copyMovements(doc._id, fields.productName, ledger.pendingMovements);
    return (await this.populate([doc.toObject() as LeanProduct]))[0]!;
  }

  /** Inserts many new products at once (a bulk load), each with its opening balance. */
  async insertMany(
    records: { id: string; fields: ProductFields; image?: ProductImageFields }[],
  ): Promise<number> {
    if (records.length === 0) return 0;
    const at = new Date();
    const docs = await this.products.insertMany(
      records.map((record) => ({
        _id: record.id,
        ...stored(record.fields),
        ...record.image,
        ...opening(record.fields.productQuantity, null, at, 'Stock when the product was added'),
      })),
    );
    await this.flushPending();
    return docs.length;
  }

  async findById(id: string): Promise<ProductView | null> {
    const doc = await this.products.findById(id).lean<LeanProduct>();
    return doc ? (await this.populate([doc]))[0]! : null;
  }

  /** The product's fields as a person set them, for a service to merge changes into. */
  async findFields(id: string): Promise<ProductFields | null> {
    const doc = await this.products.findById(id).lean<LeanProduct>();
    if (!doc) return null;
    return {
      productName: doc.productName,
      productDescription: doc.productDescription ?? '',
      price: doc.price,
      offerPrice: doc.offerPrice ?? 0,
      onOffer: doc.onOffer === true,
      productQuantity: doc.productQuantity ?? 0,
      category: doc.category.toString(),
    };
  }

  async imageKeys(id: string): Promise<string[]> {
    const doc = await this.products.findById(id).select('+imageKeys').lean<LeanProduct>();
    return doc?.imageKeys ?? [];
  }

  /**
   * Writes the merged fields only if the price, offer and texts they were computed from are still
   * the stored ones (compare-and-set): a concurrent offer or price change is never overwritten with
   * a stale effective price. Stock is written only when `setQuantity`, so sales in between are
   * kept. Null when the product is gone or changed meanwhile.
   */
  async replaceFields(
    id: string,
    expected: ProductFields,
    fields: ProductFields,
    options: { setQuantity: boolean; image?: ProductImageFields; by?: MovementMeta['by'] },
  ): Promise<ProductView | null> {
    const { productQuantity: _, ...set } = stored(fields);
    const filter = {
      _id: id,
      productName: expected.productName,
      productDescription: expected.productDescription,
      price: expected.price,
      offerPrice: expected.offerPrice,
      onOffer: expected.onOffer,
    };
    if (!options.setQuantity)
      return this.updateAndView(filter, { $set: { ...set, ...options.image } });
    // A stock set in the product form is a correction, written with its movement.
    const doc = await this.changeStock(
      { ...filter, _id: new Types.ObjectId(id) },
      { to: fields.productQuantity },
      { reason: 'correction', by: options.by, note: 'Stock set in the product form' },
      { set: { ...set, ...options.image } },
    );
    return doc ? (await this.populate([doc]))[0]! : null;
  }

  /** Sets the stock to `productQuantity`, recording the movement (none when it is unchanged). */
  async setQuantity(
    id: string,
    productQuantity: number,
    meta: MovementMeta,
  ): Promise<ProductView | null> {
    const doc = await this.changeStock(
      { _id: new Types.ObjectId(id) },
      { to: productQuantity },
      meta,
    );
    return doc ? (await this.populate([doc]))[0]! : null;
  }

  /**
   * A person's stock change with its movement: by a signed amount (never below 0: null when the
   * stock is short, or the product gone) or to an amount. Answers the product and the movement
   * (null when the stock was already that).
   */
  async adjustStock(
    id: string,
    change: StockChange,
    meta: MovementMeta,
  ): Promise<{ product: ProductView; movement: StockMovementView | null } | null> {
    const short = 'by' in change && change.by < 0 ? { productQuantity: { $gte: -change.by } } : {};
    let movementId = '';
    const doc = await this.changeStock({ _id: new Types.ObjectId(id), ...short }, change, meta, {
      onMovementId: (movement) => (movementId = movement),
    });
    if (!doc) return null;
    const entry = (doc.pendingMovements ?? []).find((m) => m._id === movementId);
    const product = (await this.populate([doc]))[0]!;
    return {
      product,
      movement: entry ? { ...entry, productId: id, productName: doc.productName } : null,
    };
  }

  /** The product's per-product low-stock threshold (null: the shop's default). */
  async setLowStockThreshold(id: string, threshold: number | null): Promise<ProductView | null> {
    return this.updateAndView({ _id: id }, { $set: { lowStockThreshold: threshold } });
  }

  async lowStockThresholdOf(id: string): Promise<number | null | undefined> {
    const doc = await this.products
      .findById(id)
      .select('lowStockThreshold')
      .lean<Pick<LeanProduct, 'lowStockThreshold'>>();
    return doc ? (doc.lowStockThreshold ?? null) : undefined;
  }

  /**
   * Products whose stock is at or below their threshold (their own, else `defaultThreshold`),
   * fewest first.
   */
  async lowStock(
    defaultThreshold: number,
  ): Promise<{ _id: string; productName: string; productQuantity: number; threshold: number }[]> {
    const threshold = { $ifNull: ['$lowStockThreshold', defaultThreshold] };
    const docs = await this.products
      .find({ $expr: { $lte: [{ $ifNull: ['$productQuantity', 0] }, threshold] } })
      .select('productName productQuantity lowStockThreshold')
      .sort({ productQuantity: 1, productName: 1 })
      .lean<Pick<LeanProduct, '_id' | 'productName' | 'productQuantity' | 'lowStockThreshold'>[]>();
    return docs.map((doc) => ({
      _id: doc._id.toString(),
      productName: doc.productName,
      productQuantity: doc.productQuantity ?? 0,
      threshold: doc.lowStockThreshold ?? defaultThreshold,
    }));
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

  /** Per product: the stock, the ledger's sum and the movements not yet copied (the check). */
  async ledgerBalances(): Promise<
    { _id: string; productName: string; productQuantity: number; ledger: number; pending: number }[]
  > {
    const sums = await this.movements.aggregate<{ _id: string; sum: number; ids: string[] }>([
      { $group: { _id: '$productId', sum: { $sum: '$change' } } },
    ]);
    const byProduct = new Map(sums.map((row) => [row._id, row.sum]));
    const copied = async (ids: string[]) =>
      new Set(
        (
          await this.movements
            .find({ _id: { $in: ids } })
            .select('_id')
            .lean<{ _id: string }[]>()
        ).map((m) => m._id),
      );
    const out = [];
    const cursor = this.products
      .find({})
      .select('productName productQuantity +pendingMovements')
      .lean<LeanProduct[]>()
      .cursor({ batchSize: 1000 });
    for await (const doc of cursor as AsyncIterable<LeanProduct>) {
      const id = doc._id.toString();
      let ledger = byProduct.get(id) ?? 0;
      const waiting = doc.pendingMovements ?? [];
      if (waiting.length) {
        const done = await copied(waiting.map((m) => m._id));
        for (const m of waiting) if (!done.has(m._id)) ledger += m.change;
      }
      out.push({
        _id: id,
        productName: doc.productName,
        productQuantity: doc.productQuantity ?? 0,
        ledger,
        pending: waiting.length,
      });
    }
    return out;
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

  /** Puts the product on offer only while the offer is below its price (one conditional update). */
  applyOffer(id: string, offerPrice: number): Promise<ProductView | null> {
    return this.updateAndView(
      { _id: id, price: { $gt: offerPrice } },
      { $set: { offerPrice, onOffer: true, effectivePrice: offerPrice } },
    );
  }

  /** Deletes the product; answers it with the storage keys of its images, to remove them too. */
  async delete(id: string): Promise<{ product: ProductView; imageKeys: string[] } | null> {
    const doc = await this.products
      .findOneAndDelete({ _id: id })
      .select('+imageKeys')
      .lean<LeanProduct>();
    if (!doc) return null;
    return { product: (await this.populate([doc]))[0]!, imageKeys: doc.imageKeys ?? [] };
  }

  /**
   * Every product with its search text and category, for the in-memory catalogue (the read model), read in batches through a cursor with only the
   * fields a view needs: at 100,000 products, reading every document whole into one array first
   * held them all at once beside their views (RSS past 2 GB at start-up).
   */
  async snapshotData(): Promise<{ products: SnapshotProduct[]; categories: CategoryRef[] }> {
    const products: SnapshotProduct[] = [];
    const categoryIds = new Set<string>();
    const cursor = this.products
      .find({})
      .select(SNAPSHOT_FIELDS)
      .lean<LeanProduct[]>()
      .cursor({ batchSize: 1000 });
    for await (const doc of cursor as AsyncIterable<LeanProduct>) {
      const categoryId = doc.category.toString();
      categoryIds.add(categoryId);
      products.push({ view: toView(doc, undefined), searchText: doc.searchText ?? '' });
    }
    const categories = await this.categories.refs([...categoryIds]);
    for (const product of products) {
      const category = categories.get(product.view.category._id);
      if (category) product.view.category = category;
    }
    return { products, categories: [...categories.values()] };
  }

  /** The products an order names. */
  async findOrderable(ids: string[]): Promise<OrderableProduct[]> {
    const docs = await this.products
      .find({ _id: { $in: [...new Set(ids)] } })
      .lean<LeanProduct[]>();
    return docs.map(toOrderable);
  }

  /** Takes `quantity` off the stock only if that much is there (one conditional update). */
  async takeStock(id: string, quantity: number, meta: MovementMeta): Promise<boolean> {
    const doc = await this.changeStock(
      { _id: new Types.ObjectId(id), productQuantity: { $gte: quantity } },
      { by: -quantity },
      meta,
    );
    return doc !== null;
  }

  async returnStock(id: string, quantity: number, meta: MovementMeta): Promise<boolean> {
    const doc = await this.changeStock({ _id: new Types.ObjectId(id) }, { by: quantity }, meta);
    return doc !== null;
  }

  /**
   * Takes `quantity` for an order and records it on the product, with the sale's movement, in one
   * conditional update; true also when this order already holds the same reservation (a retry).
   * When it answers true the movement is in the ledger (copied at once; a retry copies it again,
   * once); it leaves the product when the reservation is settled or released.
   */
  async reserveStock(
    id: string,
    orderId: string,
    quantity: number,
    meta: MovementMeta,
  ): Promise<boolean> {
    const { pipeline } = stockUpdate(
      { by: -quantity },
      { ...meta, orderId },
      {
        computed: {
          reservations: {
            $concatArrays: [
              { $ifNull: ['$reservations', []] },
              [{ $literal: { orderId, quantity } }],
            ],
          },
        },
      },
    );
    const filter = {
      _id: new Types.ObjectId(id),
      productQuantity: { $gte: quantity },
      'reservations.orderId': { $ne: orderId },
    };
    const mine = (doc: { pendingMovements?: PendingMovement[] } | null) =>
      (doc?.pendingMovements ?? []).filter((m) => m.orderId === orderId);
    const doc = (await this.products.collection.findOneAndUpdate(filter, pipeline, {
      returnDocument: 'after',
      projection: { productName: 1, pendingMovements: 1 },
    })) as Pick<LeanProduct, '_id' | 'productName' | 'pendingMovements'> | null;
    if (doc) {
      // The sale goes to the ledger now; it leaves the product when the reservation is settled.
      await this.insertMovements(id, doc.productName, mine(doc));
      return true;
    }
    // A retry: the order may already hold this reservation (its movement is copied again, once).
    const held = (await this.products.collection.findOne(
      { _id: new Types.ObjectId(id), reservations: { $elemMatch: { orderId, quantity } } },
      { projection: { productName: 1, pendingMovements: 1 } },
    )) as Pick<LeanProduct, '_id' | 'productName' | 'pendingMovements'> | null;
    if (!held) return false;
    await this.insertMovements(id, held.productName, mine(held));
    return true;
  }

  /**
   * Gives back what `orderId` reserved here, as a return movement; answers the quantity returned
   * (0 when none).
   */
  async releaseReservation(id: string, orderId: string, meta: MovementMeta): Promise<number> {
    const doc = await this.products
      .findOne({ _id: id }, { reservations: { $elemMatch: { orderId } } })
      .lean<Pick<LeanProduct, 'reservations'>>();
    const quantity = doc?.reservations?.[0]?.quantity;
    if (!quantity) return 0;
    // Conditional on the entry too: another instance releasing it meanwhile returns it once.
    const released = await this.changeStock(
      { _id: new Types.ObjectId(id), reservations: { $elemMatch: { orderId, quantity } } },
      { by: quantity },
      { ...meta, orderId },
      {
        computed: {
          reservations: {
            $filter: {
              input: { $ifNull: ['$reservations', []] },
              cond: { $ne: ['$$this.orderId', { $literal: orderId }] },
            },
          },
        },
        copy: (m) => m.orderId === orderId,
      },
    );
    return released ? quantity : 0;
  }

  /**
   * Forgets an order's reservation, keeping the stock taken (the order is placed), after copying
   * the order's sale movement to the ledger. `copied`: the caller's own `reserveStock` returned true,
   * so the movement is in the ledger already, and one update removes it and the reservation (what
   * a placement does); otherwise (the reconciler, after a crash) the movement is read and copied
   * first.
   */
  async settleReservation(id: string, orderId: string, copied = false): Promise<boolean> {
    if (copied) {
      const res = await this.products.collection.updateOne({ _id: new Types.ObjectId(id) }, {
        $pull: { reservations: { orderId }, pendingMovements: { orderId } },
      } as never);
      return res.modifiedCount === 1;
    }
    const doc = await this.products.collection.findOne(
      { _id: new Types.ObjectId(id) },
      { projection: { productName: 1, pendingMovements: 1 } },
    );
    if (!doc) return false;
    const entries = ((doc.pendingMovements ?? []) as PendingMovement[]).filter(
      (m) => m.orderId === orderId,
    );
    return this.copyMovements(doc._id, doc.productName as string, entries, {
      reservations: { orderId },
    });
  }

  /** Returns an order's stock once (with its return movement): a second call changes nothing. */
  async returnStockOnce(
    id: string,
    orderId: string,
    quantity: number,
    meta: MovementMeta,
  ): Promise<boolean> {
    const doc = await this.changeStock(
      { _id: new Types.ObjectId(id), restockedFor: { $ne: orderId } },
      { by: quantity },
      { ...meta, orderId },
      {
        computed: {
          restockedFor: {
            $concatArrays: [{ $ifNull: ['$restockedFor', []] }, [{ $literal: orderId }]],
          },
        },
      },
    );
    return doc !== null;
  }

  async clearRestockMarker(id: string, orderId: string): Promise<boolean> {
    const res = await this.products.updateOne(
      { _id: id, restockedFor: orderId },
      { $pull: { restockedFor: orderId } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * One stock change with its movement in one atomic update (see `stockUpdate`), then the
   * movement's copy to the ledger (by default the movement just made; `copy` picks more). Null when
   * the filter matched nothing. A crash between the two leaves the movement waiting in the product,
   * where the ledger's reconciler finds and copies it.
   */
  private async changeStock(
    filter: Record<string, unknown>,
    change: StockChange,
    meta: MovementMeta,
    extra: {
      set?: Record<string, unknown>;
      computed?: Record<string, unknown>;
      copy?: (m: PendingMovement) => boolean;
      onMovementId?: (id: string) => void;
    } = {},
  ): Promise<LeanProduct | null> {
    const { pipeline, movementId } = stockUpdate(change, meta, extra);
    extra.onMovementId?.(movementId);
    const doc = (await this.products.collection.findOneAndUpdate(filter, pipeline, {
      returnDocument: 'after',
      projection: { imageKeys: 0, searchText: 0, reservations: 0, restockedFor: 0 },
    })) as LeanProduct | null;
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
  private async copyMovements(
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

  /** Copies movements to the ledger under their own ids; a copy already made is left as it is. */
  private async insertMovements(
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

  /** Names already in the catalogue, among these (the seeder adds only the missing ones). */
  async existingNames(names: string[]): Promise<Set<string>> {
    const docs = await this.products
      .find({ productName: { $in: names } })
      .select('productName')
      .lean<Pick<LeanProduct, 'productName'>[]>();
    return new Set(docs.map((doc) => doc.productName));
  }

  /** One update, answered with the product as it is after it; null when nothing matched. */
  private async updateAndView(
    filter: FilterQuery<Product>,
    update: UpdateQuery<Product>,
  ): Promise<ProductView | null> {
    const doc = await this.products
      .findOneAndUpdate(filter, update, { new: true })
      .lean<LeanProduct>();
    return doc ? (await this.populate([doc]))[0]! : null;
  }

  private async populate(
    docs: LeanProduct[],
    known: Map<string, CategoryRef> = new Map(),
  ): Promise<ProductView[]> {
    const missing = docs.map((doc) => doc.category.toString()).filter((id) => !known.has(id));
    const refs = missing.length ? await this.categories.refs(missing) : new Map();
    return docs.map((doc) => {
      const id = doc.category.toString();
      return toView(doc, known.get(id) ?? refs.get(id));
    });
  }
}
