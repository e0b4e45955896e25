import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import { defaultUnitOf, fromPricePerSeedling, type SaleUnit } from '@spc/shared-contracts';
import { openingBalance, type MovementMeta, type PendingMovement } from '../inventory/stock-ledger';
import { StockLedgerRepository } from '../inventory/stock-ledger.repository';
import { CategoriesRepository } from './categories.repository';
import { Product } from './schemas/product.schema';
import type { SnapshotProduct } from './read-model/catalogue-snapshot';
import { StringPool } from './read-model/string-pool';
import type {
  CategoryRef,
  OrderableProduct,
  ProductFields,
  ProductImageFields,
  ProductView,
} from './catalog.types';

type LeanProduct = Omit<Product, 'category' | 'pendingMovements'> & {
  _id: Types.ObjectId;
  category: Types.ObjectId;
  pendingMovements?: PendingMovement[];
};

/** The product record a write stores: what a person set plus what follows from it. */
type StoredFields = Omit<ProductFields, 'category'> & {
  category: Types.ObjectId;
  initialPrice: number;
  effectivePrice: number;
  searchText: string;
};

/** Effective price, initial price and search text always follow from the fields a person sets. */
function stored(fields: ProductFields, id?: string): StoredFields {
  const units = fields.units ?? (id ? [defaultUnitOf(fields, id)] : undefined);
  return {
    ...fields,
    ...(units ? { units: syncDefaultUnit(units, fields) } : {}),
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

/**
 * What a product view reads of a product document (the list's search lower-cases name and
 * description itself: the stored search text would be a third copy of them to read).
 */
const SNAPSHOT_FIELDS =
  'productName productDescription price initialPrice offerPrice onOffer effectivePrice ' +
  'productQuantity stockSeq units category productImage productImages createdAt updatedAt';

/** The tiers of a unit that has none: one frozen empty list shared by every such unit in memory. */
const NO_TIERS = Object.freeze([]) as unknown as SaleUnit['tiers'];

/**
 * The product's units: the stored ones, or (not yet migrated) its single seedling alone, whose id is
 * the product's own; the first always priced by `price` and the offer.
 */
export function unitsOf(
  doc: Pick<LeanProduct, '_id' | 'units' | 'price' | 'onOffer' | 'offerPrice'>,
) {
  const product = {
    price: doc.price,
    onOffer: doc.onOffer === true,
    offerPrice: doc.offerPrice ?? 0,
  };
  return doc.units?.length
    ? syncDefaultUnit(doc.units, product)
    : [defaultUnitOf(product, doc._id.toString())];
}

/** The units with the first (the single seedling) at the product's price and offer. */
function syncDefaultUnit(
  units: SaleUnit[],
  product: { price: number; onOffer: boolean; offerPrice: number },
): SaleUnit[] {
  const [first, ...rest] = units;
  return [
    { ...first!, price: product.price, offerPrice: product.onOffer ? product.offerPrice : 0 },
    ...rest,
  ];
}

/**
 * A product's view. With `pool` (the in-memory catalogue's load), equal strings are kept once, the
 * single seedling's id is the product's own string, and units without tiers share one empty list.
 */
function toView(
  doc: LeanProduct,
  category: CategoryRef | undefined,
  pool?: StringPool,
): ProductView {
  const categoryId = doc.category.toString();
  const _id = doc._id.toString();
  const units = pool ? unitsOf(doc).map((unit) => pooledUnit(unit, _id, pool)) : unitsOf(doc);
  const s = pool ? (text: string) => pool.intern(text) : (text: string) => text;
  return {
    _id,
    productName: doc.productName,
    productDescription: s(doc.productDescription ?? ''),
    price: doc.price,
    initialPrice: doc.initialPrice ?? doc.price,
    offerPrice: doc.offerPrice ?? 0,
    onOffer: doc.onOffer === true,
    effectivePrice: doc.effectivePrice,
    productQuantity: doc.productQuantity ?? 0,
    units,
    fromPrice: fromPricePerSeedling(units),
    // A category deleted under a product (a race the service narrows but cannot close) shows empty.
    category: category ?? { _id: categoryId, name: '' },
    productImage: s(doc.productImage ?? ''),
    productImages: imagesByWidth(doc.productImages, pool),
    createdAt: s(new Date(doc.createdAt).toISOString()),
    updatedAt: s(new Date(doc.updatedAt).toISOString()),
    // The catalogue in memory adds the bookable batches (see CatalogueBatches).
    batches: [],
  };
}

/**
 * A product's image addresses by width, as a view holds them. The widths ("320", "640") are array
 * indices: an object given them one by one keeps a fast array as long as the largest width (about
 * 1,000 slots: 8 KB a product, two thirds of the whole catalogue in memory, and walked by every
 * JSON.stringify of the view); JSON.parse builds the same object with sparse elements (a few
 * hundred bytes). The JSON is the same: index keys always go out in ascending order.
 */
function imagesByWidth(
  images: Record<string, string> | undefined,
  pool: StringPool | undefined,
): Record<string, string> {
  if (!images) return {};
  const text = JSON.stringify(images);
  return pool
    ? JSON.parse(text, (_key, value: unknown) =>
        typeof value === 'string' ? pool.intern(value) : value,
      )
    : JSON.parse(text);
}

/** A unit as the in-memory catalogue keeps it (see toView). */
function pooledUnit(unit: SaleUnit, productId: string, pool: StringPool): SaleUnit {
  return {
    _id: unit._id === productId ? productId : pool.intern(unit._id),
    name: pool.intern(unit.name),
    seedlings: unit.seedlings,
    price: unit.price,
    offerPrice: unit.offerPrice,
    sku: pool.intern(unit.sku),
    minQuantity: unit.minQuantity,
    step: unit.step,
    tiers: unit.tiers?.length
      ? unit.tiers.map((t) => ({ minQuantity: t.minQuantity, price: t.price }))
      : unit.tiers && NO_TIERS,
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
    units: unitsOf(doc),
  };
}

/**
 * The only place that touches the products collection; returns plain views with the category
 * populated from the categories collection. A stock set with the product goes through the stock
 * ledger (inventory/), which writes it with its movement.
 */
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
