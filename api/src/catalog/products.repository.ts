import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import type { SaleUnit } from '@spc/shared-contracts';
import { openingBalance, type MovementMeta } from '../inventory/stock-ledger';
import { StockLedgerRepository } from '../inventory/stock-ledger.repository';
import { CategoriesRepository } from './categories.repository';
import { Product } from './schemas/product.schema';
import type { SnapshotProduct } from './read-model/catalogue-snapshot';
import { StringPool } from './read-model/string-pool';
import {
  type LeanProduct,
  SNAPSHOT_FIELDS,
  stored,
  toOrderable,
  toView,
  unitsOf,
} from './product-mapper';
import type {
  CategoryRef,
  OrderableProduct,
  ProductFields,
  ProductImageFields,
  ProductView,
} from './catalog.types';

/**
 * The only place that touches the products collection; returns plain views with the category
 * populated from the categories collection. A stock set with the product goes through the stock
 * ledger (inventory/), which writes it with its movement.
 */
/** A product's tax fields and its units (each with its own tax type, when it has one). */
export type ProductTax = Required<Pick<ProductFields, 'taxType' | 'itemClassCode'>> & {
  units: SaleUnit[];
};

/** Deleted products' tax fields, by the product's id (no one's data). */
export const DELETED_PRODUCTS_COLLECTION = 'deleted_products';
type DeletedProductTax = ProductTax & { _id: string };

@Injectable()
export class ProductsRepository {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly categories: CategoriesRepository,
    private readonly ledger: StockLedgerRepository,
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
    const balance = openingBalance(
      fields.productQuantity,
      by,
      new Date(),
      'Stock when the product was added',
    );
    const doc = await this.products.create({
      _id: id,
      ...stored(fields, id),
      ...image,
      ...balance,
    });
    await this.ledger.copyMovements(doc._id, fields.productName, balance.pendingMovements);
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
        ...stored(record.fields, record.id),
        ...record.image,
        ...openingBalance(
          record.fields.productQuantity,
          null,
          at,
          'Stock when the product was added',
        ),
      })),
    );
    await this.ledger.flushPending();
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
      units: unitsOf(doc),
      taxType: doc.taxType ?? null,
      itemClassCode: doc.itemClassCode ?? null,
    };
  }

  /** The product's tax fields and its units (each with its own tax type, when it has one). */
  async findTax(id: string): Promise<ProductTax | null> {
    const doc = await this.products
      .findById(id)
      .select('taxType itemClassCode units price onOffer offerPrice')
      .lean<LeanProduct>();
    if (!doc) return this.deletedTax().findOne({ _id: id }, { projection: { _id: 0 } });
    return {
      taxType: doc.taxType ?? null,
      itemClassCode: doc.itemClassCode ?? null,
      units: unitsOf(doc),
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
    // A product flagged short (a gate sale took it below zero, issue 47) shows 0 in the form:
    // saved with that 0 unchanged, it is no count, so its stock stays as it is, still flagged.
    if (fields.productQuantity === 0) {
      const kept = await this.updateAndView(
        { ...filter, stockShort: true },
        { $set: { ...set, ...options.image } },
      );
      if (kept) return kept;
    }
    // A stock set in the product form is a correction, written with its movement.
    const doc = await this.ledger.changeStock<LeanProduct>(
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
    const doc = await this.ledger.changeStock<LeanProduct>(
      { _id: new Types.ObjectId(id) },
      { to: productQuantity },
      meta,
    );
    return doc ? (await this.populate([doc]))[0]! : null;
  }

  /** Puts the product on offer only while the offer is below its price (one conditional update). */
  applyOffer(id: string, offerPrice: number): Promise<ProductView | null> {
    return this.updateAndView(
      { _id: id, price: { $gt: offerPrice } },
      { $set: { offerPrice, onOffer: true, effectivePrice: offerPrice } },
    );
  }

  /**
   * Deletes the product; answers it with the storage keys of its images, to remove them too. Its
   * tax fields stay behind (`deleted_products`) first: an order placed before the deletion is
   * still signed with KRA under the product's classification and tax type (`findTax`).
   */
  async delete(id: string): Promise<{ product: ProductView; imageKeys: string[] } | null> {
    const tax = await this.findTax(id);
    if (tax) await this.deletedTax().replaceOne({ _id: id }, tax, { upsert: true });
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
    const pool = new StringPool();
    const cursor = this.products
      .find({})
      .select(SNAPSHOT_FIELDS)
      .lean<LeanProduct[]>()
      .cursor({ batchSize: 1000 });
    for await (const doc of cursor as AsyncIterable<LeanProduct>) {
      const categoryId = doc.category.toString();
      categoryIds.add(categoryId);
      const view = toView(doc, undefined, pool);
      products.push({
        view,
        searchName: view.productName.toLowerCase(),
        searchDescription: pool.lowerCase(view.productDescription),
        bookable: [],
        stockSeq: doc.stockSeq ?? 0,
      });
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

  /** Names already in the catalogue, among these (the seeder adds only the missing ones). */
  async existingNames(names: string[]): Promise<Set<string>> {
    const docs = await this.products
      .find({ productName: { $in: names } })
      .select('productName')
      .lean<Pick<LeanProduct, 'productName'>[]>();
    return new Set(docs.map((doc) => doc.productName));
  }

  /** The view of a product document a stock change answered (see the stock ledger). */
  async view(doc: object): Promise<ProductView> {
    return (await this.populate([doc as LeanProduct]))[0]!;
  }

  /** One update, answered with the product as it is after it; null when nothing matched. */
  /** The tax fields of deleted products, kept for the orders placed before (eTIMS). */
  private deletedTax() {
    return this.products.db.collection<DeletedProductTax>(DELETED_PRODUCTS_COLLECTION);
  }

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
