import type { SaleUnit, TaxType } from '@spc/shared-contracts';

/** A product's category as products carry it. */
export interface CategoryRef {
  _id: string;
  name: string;
}

/** A category as the API shows it. */
export interface CategoryView extends CategoryRef {
  description: string;
  productCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface CategoryPage {
  items: CategoryView[];
  total: number;
  totalPages: number;
  page: number;
}

/** A product as the API shows it: no storage keys, no internal search text. */
/** A growing batch of a product shoppers can book (issue 32): ready on a day, seedlings left. */
export interface BookableBatchRef {
  _id: string;
  /** `YYYY-MM-DD` */
  readyOn: string;
  available: number;
}

export interface ProductView {
  _id: string;
  productName: string;
  productDescription: string;
  price: number;
  initialPrice: number;
  offerPrice: number;
  onOffer: boolean;
  effectivePrice: number;
  productQuantity: number;
  /** How it is sold; the first is the single seedling (its prices are `price` and the offer). */
  units: SaleUnit[];
  /** The lowest price of one seedling any unit, tier or offer reaches (whole KES, rounded up). */
  fromPrice: number;
  category: CategoryRef;
  productImage: string;
  productImages: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  /** Bookable batches, soonest first (at most BATCH_LIMITS.batchesPerProduct). */
  batches: BookableBatchRef[];
}

/** The fields a person sets on a product; the rest (effective price, search text) follow from them. */
export interface ProductFields {
  productName: string;
  productDescription: string;
  price: number;
  offerPrice: number;
  onOffer: boolean;
  productQuantity: number;
  category: string;
  /**
   * The units, the first the single seedling (its prices follow `price` and the offer); absent on
   * a new product: its single seedling alone.
   */
  units?: SaleUnit[];
  /** KRA tax type; null (or absent: a bulk load) is the shop's default. */
  taxType?: TaxType | null;
  /** KRA item classification code; null (or absent) is none. */
  itemClassCode?: string | null;
}

/** A unit's tax as staff read it. */
export interface UnitTaxView {
  _id: string;
  name: string;
  /** Its own type; null: its product's. */
  taxType: TaxType | null;
  /** The type it is taxed at (its own, the product's, the shop's default); null: none. */
  effectiveTaxType: TaxType | null;
}

/** `GET /api/products/:id/tax`: a product's tax fields and each unit's tax (staff only). */
export interface ProductTaxView {
  productId: string;
  taxType: TaxType | null;
  itemClassCode: string | null;
  shopDefaultTaxType: TaxType | null;
  /** The type the product's units are taxed at unless they have their own. */
  effectiveTaxType: TaxType | null;
  units: UnitTaxView[];
}

export interface ProductImageFields {
  productImage: string;
  productImages: Record<string, string>;
  imageKeys: string[];
}

export type ProductSortField = 'price' | 'createdAt';
export type SortOrder = 'asc' | 'desc';

/** What narrows the product list; `search` is already lower-cased and literal (escaped later). */
export interface ProductFilter {
  search?: string;
  category?: string;
  minPrice?: number;
  maxPrice?: number;
  /** Ready stock now, or a bookable batch ready within these days (a season's window). */
  availability?: { now: true } | { readyFrom: string; readyTo: string };
}

export interface ProductListQuery extends ProductFilter {
  sortBy: ProductSortField;
  sortOrder: SortOrder;
  skip: number;
  limit: number;
}

export interface PriceRange {
  min: number;
  max: number;
}

/** `GET /api/products` less the envelope. */
export interface ProductListPage {
  products: ProductView[];
  categories: CategoryView[];
  totalProducts: number;
  totalsPerCategory: Record<string, number>;
  totalPages: number;
  totalFilteredProducts: number;
  page: number;
  limit: number;
  priceRange: PriceRange;
}

/** What order placement needs of a product (prices always come from the catalog, never from the client). */
/**
 * A product's stock as the database holds it after a change: the quantity and the number of the
 * product's last stock movement (`stockSeq`), which orders the changes of one product.
 */
export interface StockLevel {
  quantity: number;
  seq: number;
}

export interface OrderableProduct {
  _id: string;
  productName: string;
  productImage: string;
  price: number;
  offerPrice: number;
  onOffer: boolean;
  effectivePrice: number;
  productQuantity: number;
  units: SaleUnit[];
}
