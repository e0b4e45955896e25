import { BATCH_LIMITS } from '@spc/shared-contracts';
import type { BookableBatchRef, CategoryRef, PriceRange, ProductView } from '../catalog.types';

export interface SnapshotProduct {
  view: ProductView;
  /**
   * Lower-cased name and description, as the list's search matches them: apart, so that products
   * sharing a description share its lower-cased copy (a search, one line, never spans both).
   */
  searchName: string;
  searchDescription: string;
  /** Every bookable batch, soonest first (the view shows the first few); the season filter's. */
  bookable: BookableBatchRef[];
  /** The number of the stock movement the view's stock follows (the product's `stockSeq`). */
  stockSeq: number;
}

/** Whether a product's name or description holds `search` (lower-cased, one line). */
export function matchesSearch(product: SnapshotProduct, search: string): boolean {
  return product.searchName.includes(search) || product.searchDescription.includes(search);
}

/** The whole catalogue as one version of it held in memory (a few megabytes at 10,000 products). */
export interface Snapshot {
  products: SnapshotProduct[];
  /**
   * The products in the list's two orders, ascending (ties by id), sorted once per load: a list
   * walks one of them (backwards for descending) instead of sorting its matches on every request.
   */
  byCreatedAt: SnapshotProduct[];
  byPrice: SnapshotProduct[];
  byId: Map<string, SnapshotProduct>;
  categories: CategoryRef[];
  priceRange: PriceRange;
}

export type SnapshotLoader = () => Promise<{
  products: SnapshotProduct[];
  categories: CategoryRef[];
}>;

/** A product of the catalogue with its bookable batches (the view shows the soonest few). */
export function withBatches(product: SnapshotProduct, batches: BookableBatchRef[]): void {
  product.bookable = batches;
  product.view = { ...product.view, batches: batches.slice(0, BATCH_LIMITS.batchesPerProduct) };
}

/** The snapshot of what the loader read: sorted both ways, indexed by id, with its price range. */
export function buildSnapshot(products: SnapshotProduct[], categories: CategoryRef[]): Snapshot {
  let min = Infinity;
  let max = -Infinity;
  for (const { view } of products) {
    min = Math.min(min, view.effectivePrice);
    max = Math.max(max, view.effectivePrice);
  }
  return {
    products,
    byCreatedAt: sortedBy(products, (p) => p.view.createdAt),
    byPrice: sortedBy(products, (p) => p.view.effectivePrice),
    byId: new Map(products.map((p) => [p.view._id, p])),
    categories,
    priceRange: products.length ? { min, max } : { min: 0, max: 0 },
  };
}

/** Ascending by `key`, ties by id: the order of a list sorted ascending (descending is its reverse). */
function sortedBy(
  products: SnapshotProduct[],
  key: (p: SnapshotProduct) => string | number,
): SnapshotProduct[] {
  return products
    .map((p) => ({ p, k: key(p) }))
    .sort((a, b) =>
      a.k !== b.k
        ? a.k < b.k
          ? -1
          : 1
        : a.p.view._id < b.p.view._id
          ? -1
          : a.p.view._id > b.p.view._id
            ? 1
            : 0,
    )
    .map(({ p }) => p);
}
