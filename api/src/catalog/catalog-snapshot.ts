import type { CategoryRef, PriceRange, ProductView } from './catalog.types';

/**
 * How long a snapshot serves before it is read again in the background. The API's own writes, and
 * other instances' through the change feed (CatalogSync), reach the snapshot within about a second;
 * this reload is only the backstop for writes made to the database by other means (a restore, a
 * script), so it is long: reading 10,000 products again costs a second or two of CPU, which every
 * 30 s was 5% of a core and a spike in the lists' latency.
 */
export const SNAPSHOT_TTL_MS = 5 * 60_000;
/**
 * A periodic reload waits at least this many times as long as the last load took, so that reading a
 * large catalogue again (100,000 products take tens of seconds on a slow database) never becomes
 * most of what the process does.
 */
export const RELOAD_SPACING = 10;

export interface SnapshotProduct {
  view: ProductView;
  /** Lower-cased name and description, as the list's search matches them. */
  searchText: string;
}

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

/**
 * The whole catalogue held in this process, so that product lists and product pages are answered
 * from memory (a small shop's catalogue is a few megabytes even at 10,000 products). A catalog write
 * in this process marks it stale, and the next read loads it again; a stock change from an order is
 * applied in place. Other instances' writes show once the change feed reports them (within
 * CATALOG_SYNC_INTERVAL_MS), or at the latest within the TTL.
 */
export class CatalogSnapshot {
  private state?: { snapshot: Snapshot; loadedAt: number; loadMs: number; generation: number };
  private loading?: Promise<Snapshot>;
  private generation = 0;
  private beforeRead?: () => Promise<void> | undefined;

  constructor(
    private readonly load: SnapshotLoader,
    private readonly ttlMs = SNAPSHOT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The catalogue as of the last change this process knows of. A snapshot past its TTL (no change
   * known, only time gone by) is still answered while a fresh one loads in the background: readers
   * never wait for a periodic reload (at 10,000 products it takes seconds on a slow database, and held
   * every list and product page back meanwhile). After a change, readers wait for the new load.
   */
  async current(): Promise<Snapshot> {
    const look = this.beforeRead?.();
    if (look) await look;
    const state = this.state;
    if (state && state.generation === this.generation) {
      if (this.reloadDue(state)) {
        // A failed refresh leaves the snapshot as it is; the next read past the TTL tries again.
        this.refresh().catch(() => undefined);
      }
      return state.snapshot;
    }
    return this.refresh();
  }

  /**
   * The catalogue without waiting, when what is held is current: loaded, no change since, not past
   * its reload time, and no look at other instances' changes due (the look is started). Undefined
   * otherwise; {@link current} then gives it.
   */
  peek(): Snapshot | undefined {
    const state = this.state;
    if (!state || state.generation !== this.generation) return undefined;
    if (this.reloadDue(state)) return undefined;
    if (this.beforeRead?.()) return undefined;
    return state.snapshot;
  }

  /** Runs before every read: looks for other instances' changes (see CatalogSync). */
  syncBeforeRead(hook: () => Promise<void> | undefined): void {
    this.beforeRead = hook;
  }

  /** The catalogue changed (a product or category was written): read it again when next asked. */
  invalidate(): void {
    this.generation += 1;
  }

  /** An order took or gave back stock: apply it to the snapshot in place. */
  adjustStock(productId: string, delta: number): void {
    const entry = this.state?.snapshot.byId.get(productId);
    if (entry)
      entry.view = {
        ...entry.view,
        productQuantity: Math.max(0, entry.view.productQuantity + delta),
      };
    // A load under way may have read the product before this change: do not keep its result.
    if (this.loading) this.generation += 1;
  }

  /** Past the TTL (and at least RELOAD_SPACING times the last load's time): read it again. */
  private reloadDue(state: { loadedAt: number; loadMs: number }): boolean {
    return this.now() - state.loadedAt >= Math.max(this.ttlMs, RELOAD_SPACING * state.loadMs);
  }

  private refresh(): Promise<Snapshot> {
    return (this.loading ??= this.reload().finally(() => (this.loading = undefined)));
  }

  private async reload(): Promise<Snapshot> {
    const generation = this.generation;
    const startedAt = this.now();
    const { products, categories } = await this.load();
    let min = Infinity;
    let max = -Infinity;
    for (const { view } of products) {
      min = Math.min(min, view.effectivePrice);
      max = Math.max(max, view.effectivePrice);
    }
    const snapshot: Snapshot = {
      products,
      byCreatedAt: sortedBy(products, (p) => p.view.createdAt),
      byPrice: sortedBy(products, (p) => p.view.effectivePrice),
      byId: new Map(products.map((p) => [p.view._id, p])),
      categories,
      priceRange: products.length ? { min, max } : { min: 0, max: 0 },
    };
    this.state = { snapshot, loadedAt: startedAt, loadMs: this.now() - startedAt, generation };
    return snapshot;
  }
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
