import { setNewest } from '../common/bounded-map';
import type { ProductListPage } from './catalog.types';

export const PRODUCT_LIST_TTL_MS = 30_000;
export const PRODUCT_LIST_MAX_ENTRIES = 500;

interface Entry {
  expiresAt: number;
  value: ProductListPage;
}

/** What the cache needs from {@link CatalogSync}: announce a change, look at others' changes. */
export interface CatalogChangeFeed {
  changed(): void;
  beforeRead(): Promise<void> | undefined;
  /** Resolves once every change made so far is announced. */
  flush(): Promise<void>;
}

/**
 * Answers of the product list (the hottest path) kept in this process for a short while, keyed by
 * the normalised query. Every catalog write clears it, so this process never serves a list older
 * than its last write; with a change feed attached, other instances' writes clear it within the
 * feed's interval (the TTL is the backstop). Provided by a factory (its constructor's arguments are
 * for tests).
 */
export class ProductListCache {
  private readonly entries = new Map<string, Entry>();
  /** Lists being computed: concurrent requests for the same list share one computation. */
  private readonly inFlight = new Map<
    string,
    { generation: number; promise: Promise<ProductListPage> }
  >();
  /** Bumped by every clear: a list computed across a write is not stored (it may predate it). */
  private generation = 0;
  private readonly listeners: (() => void)[] = [];
  private readonly dropListeners: (() => void)[] = [];
  private feed?: CatalogChangeFeed;

  constructor(
    private readonly ttlMs = PRODUCT_LIST_TTL_MS,
    private readonly maxEntries = PRODUCT_LIST_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): ProductListPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Computes the answer once, or serves it from the cache. While it is being computed, other
   * requests for the same list wait for that computation instead of starting their own (a burst of
   * identical requests on a cold cache costs one set of queries, not one per request).
   */
  async getOrCompute(
    key: string,
    compute: () => Promise<ProductListPage>,
  ): Promise<ProductListPage> {
    const look = this.lookBeforeRead();
    if (look) await look;
    const cached = this.get(key);
    if (cached) return cached;
    const running = this.inFlight.get(key);
    if (running && running.generation === this.generation) return running.promise;
    const generation = this.generation;
    const promise = compute().then((value) => {
      if (generation === this.generation) this.set(key, value);
      return value;
    });
    this.inFlight.set(key, { generation, promise });
    try {
      return await promise;
    } finally {
      if (this.inFlight.get(key)?.promise === promise) this.inFlight.delete(key);
    }
  }

  /** A product or category was written: every list goes, and listeners (the snapshot) hear of it. */
  clear(): void {
    this.forgetAll();
    this.feed?.changed();
  }

  /** Stock changed (an order): the lists go; the catalogue snapshot is adjusted in place instead. */
  clearLists(): void {
    this.dropLists();
    this.feed?.changed();
  }

  /** Another instance changed the catalogue or its stock: lists and snapshot are read again. */
  forgetAll(): void {
    this.dropLists();
    for (const listener of this.listeners) listener();
  }

  /** The look at other instances' changes, when one is due before a read (see CatalogSync). */
  lookBeforeRead(): Promise<void> | undefined {
    return this.feed?.beforeRead();
  }

  /** Resolves once other instances have been told of every change so far (before shutdown). */
  async announced(): Promise<void> {
    await this.feed?.flush();
  }

  /** Tells other instances of this one's changes and listens for theirs. */
  attachFeed(feed: CatalogChangeFeed): void {
    this.feed = feed;
  }

  onCatalogChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Also told when the lists are dropped (answers kept beside them, made from the same data). */
  onListsDropped(listener: () => void): void {
    this.dropListeners.push(listener);
  }

  private dropLists(): void {
    this.generation += 1;
    this.entries.clear();
    for (const listener of this.dropListeners) listener();
  }

  private set(key: string, value: ProductListPage): void {
    setNewest(this.entries, key, { expiresAt: this.now() + this.ttlMs, value }, this.maxEntries);
  }
}
