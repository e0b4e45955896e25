/**
 * How a product document becomes what the API answers (a view, an orderable product, the
 * catalogue's snapshot) and how a person's fields become the stored record. No database here:
 * ProductsRepository reads and writes, this maps.
 */
import { Types } from 'mongoose';
import { defaultUnitOf, fromPricePerSeedling, type SaleUnit } from '@spc/shared-contracts';
import { shownQuantity, type PendingMovement } from '../inventory/stock-ledger';
import { Product } from './schemas/product.schema';
import { StringPool } from './read-model/string-pool';
import type { CategoryRef, OrderableProduct, ProductFields, ProductView } from './catalog.types';

export type LeanProduct = Omit<Product, 'category' | 'pendingMovements'> & {
  _id: Types.ObjectId;
  category: Types.ObjectId;
  pendingMovements?: PendingMovement[];
};

/** The product record a write stores: what a person set plus what follows from it. */
export type StoredFields = Omit<ProductFields, 'category'> & {
  category: Types.ObjectId;
  initialPrice: number;
  effectivePrice: number;
  searchText: string;
};

/** Effective price, initial price and search text always follow from the fields a person sets. */
export function stored(fields: ProductFields, id?: string): StoredFields {
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
export const SNAPSHOT_FIELDS =
  'productName productDescription price initialPrice offerPrice onOffer effectivePrice ' +
  'productQuantity stockSeq stockShort units category productImage productImages createdAt updatedAt';

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
export function toView(
  doc: LeanProduct,
  category: CategoryRef | undefined,
  pool?: StringPool,
): ProductView {
  const categoryId = doc.category.toString();
  const _id = doc._id.toString();
  const units = pool
    ? unitsOf(doc).map((unit) => pooledUnit(unit, _id, pool))
    : unitsOf(doc).map(viewUnit);
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
    productQuantity: shownQuantity(doc),
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

/** A unit as a view shows it: without its own tax type (staff read a product's tax apart). */
function viewUnit(unit: SaleUnit): SaleUnit {
  if (unit.taxType === undefined) return unit;
  const { taxType: _staffOnly, ...shown } = unit;
  return shown;
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

export function toOrderable(doc: LeanProduct): OrderableProduct {
  return {
    _id: doc._id.toString(),
    productName: doc.productName,
    productImage: doc.productImage ?? '',
    price: doc.price,
    offerPrice: doc.offerPrice ?? 0,
    onOffer: doc.onOffer === true,
    effectivePrice: doc.effectivePrice,
    productQuantity: shownQuantity(doc),
    units: unitsOf(doc),
  };
}
