import type { FastifyReply } from 'fastify';
import { envelope, JSON_CONTENT_TYPE } from '../../common/answer';
import { setNewest } from '../../common/bounded-map';
import type { ProductListPage, ProductView } from '../catalog.types';
import type { ProductListQueryDto } from '../dto/product.dto';
import type { CatalogueChange, CatalogueEvents } from './catalogue-events';
import type { SeasonKey } from '@spc/shared-contracts';
import type { BookableBatchRef, StockLevel } from '../catalog.types';
import {
  buildSnapshot,
  withBatches,
  type Snapshot,
  type SnapshotLoader,
} from './catalogue-snapshot';
import {
  computeListPage,
  normaliseListQuery,
  type CategoriesWithCounts,
  type NormalisedListQuery,
} from './product-list';

/**
 * How long a version of the catalogue serves before it is read again in the background. The API's
 * own writes, and other instances' (through {@link RemoteChanges}), reach it within about a second;
 * this reload is only the backstop for writes made to the database by other means (a restore, a
 * script), so it is long: reading 10,000 products again costs a second or two of CPU.
 */
export const RELOAD_AFTER_MS = 5 * 60_000;
/**
 * A periodic reload waits at least this many times as long as the last load took, so that reading a
 * large catalogue again (100,000 products take tens of seconds on a slow database) never becomes
 * most of what the process does.
 */
export const RELOAD_SPACING = 10;
/** List pages kept, by normalised query; and URLs (as sent) known to name one of them. */
export const MAX_PAGES = 500;
export const MAX_URLS = 1000;
/**
 * Product pages kept as the JSON bytes sent, the most recently asked first: a bounded cost (a
 * couple of kilobytes each) rather than one per product of the catalogue; a page not kept is
 * written again on request (a few microseconds).
 */
export const MAX_PRODUCT_PAGES = 10_000;

/** Other API instances sharing the database (see CatalogSync). */
export interface RemoteChanges {
  /** This instance changed the catalogue or its stock: the others are told. */
  changed(): void;
  /** The look at the others' changes, when one is due (undefined when not). */
  lookForChanges(): Promise<void> | undefined;
  /** Resolves once the announcements under way are done. */
  flush(): Promise<void>;
}

/** A list page, and the answer's JSON bytes sent for it. */
export interface ListAnswer {
  readonly page: ProductListPage;
  readonly bytes: Buffer;
  /** The catalogue's version it was computed from. */
  readonly version: number;
}

interface Held {
  snapshot: Snapshot;
  /** The catalogue's version this snapshot shows; it serves only while that is the current one. */
  version: number;
  loadedAt: number;
  loadMs: number;
}

/**
 * The catalogue as reads see it, held in this process: one version of the whole catalogue, the list
 * pages computed from it (one cache, keyed by the normalised query), and every answer kept as the
 * JSON bytes sent, so that lists and product pages are answered from memory.
 *
 * One counter, `version`, moves on every change this process learns of: a write here (heard through
 * {@link CatalogueEvents}), another instance's (one look, {@link RemoteChanges.lookForChanges}), or a
 * periodic reload. Pages go with the version they were made from, and nothing made before a change is
 * kept after it: nothing is ever served across a change. A stock change from an order is applied to
 * the held catalogue in place (no reload); any other change makes the next read load it again.
 *
 * Stock follows the database by its sequence, never by replaying a change: a load takes each
 * product's stock and `stockSeq` as the database has them, and a stock change (the quantity and
 * sequence its write answered) replaces them only when it is newer. A load that read the product
 * after a write, but before the write's word arrived, already shows it: the word is then old news.
 */
export class CatalogReadModel {
  private version = 0;
  private held?: Held;
  private loading?: Promise<Snapshot>;
  private readonly pages = new Map<string, ListAnswer>();
  /** URLs as sent whose answer is one of the pages: the prepared answers (see servePreparedAnswers). */
  private readonly urls = new Map<string, Buffer>();
  /** Pages being computed: concurrent requests for one page share one computation. */
  private readonly computing = new Map<string, { version: number; promise: Promise<ListAnswer> }>();
  /**
   * Product pages' bytes, per view (a view is replaced, never changed, when its product changes),
   * at most MAX_PRODUCT_PAGES of them; emptied when a new catalogue is held.
   */
  private readonly productBytes = new Map<ProductView, Buffer>();
  private readonly remote?: RemoteChanges;
  /** The ready days of the coming season (the list's availability filter); none: nothing is. */
  seasonWindow: (key: SeasonKey) => { readyFrom: string; readyTo: string } | null = () => null;

  constructor(
    private readonly load: SnapshotLoader,
    private readonly categoriesWithCounts: CategoriesWithCounts,
    events: CatalogueEvents,
    remote?: (heard: () => void) => RemoteChanges,
    private readonly reloadAfterMs = RELOAD_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {
    events.listen((change) => this.changedHere(change));
    this.remote = remote?.(() => this.changed());
  }

  /** `GET /api/products`: the page for this query, computed once per version of the catalogue. */
  list(dto: ProductListQueryDto): Promise<ListAnswer> {
    return this.page(normaliseListQuery(dto, this.seasonWindow));
  }

  /** A list answered: `url` (as sent) names that page until the next change. */
  prepare(url: string, answer: ListAnswer): void {
    if (answer.version === this.version) setNewest(this.urls, url, answer.bytes, MAX_URLS);
  }

  /** `GET /api/products/:id` from memory; undefined when the catalogue does not hold it. */
  async product(id: string): Promise<ProductView | undefined> {
    return (await this.current()).byId.get(id)?.view;
  }

  /** Sends `product`'s page: a handler returns what this returns. */
  sendProduct(reply: FastifyReply, product: ProductView): Buffer {
    void reply.type(JSON_CONTENT_TYPE);
    return this.productText(product);
  }

  /** Sends a list page: a handler returns what this returns. */
  sendList(reply: FastifyReply, answer: ListAnswer): Buffer {
    void reply.type(JSON_CONTENT_TYPE);
    return answer.bytes;
  }

  /**
   * The bytes of a list answered before for this URL, when nothing changed since and no look at
   * other instances is due (the look is started; the request goes to its handler, which waits).
   */
  preparedList(url: string): Buffer | undefined {
    const bytes = this.urls.get(url);
    return bytes && !this.look() ? bytes : undefined;
  }

  /** A product page's bytes straight from the held catalogue, when it is current. */
  preparedProduct(id: string): Buffer | undefined {
    const held = this.held;
    if (!held || held.version !== this.version || this.reloadDue(held) || this.look()) {
      return undefined;
    }
    const product = held.snapshot.byId.get(id);
    return product ? this.productText(product.view) : undefined;
  }

  /**
   * A product as the held catalogue has it, when that catalogue is current (what
   * `preparedProduct` serves); undefined otherwise (not held, a load or a look at other instances
   * due): never waits for a load.
   */
  heldProduct(id: string): ProductView | undefined {
    const held = this.held;
    if (!held || held.version !== this.version || this.reloadDue(held) || this.look()) {
      return undefined;
    }
    return held.snapshot.byId.get(id)?.view;
  }

  /** How many URLs have a prepared answer. */
  get preparedCount(): number {
    return this.urls.size;
  }

  /** Resolves once other instances have been told of every change so far (before shutdown). */
  async announced(): Promise<void> {
    await this.remote?.flush();
  }

  /**
   * The catalogue as of the last change this process knows of. Past its reload time (no change
   * known, only time gone by) it is still answered while a fresh one loads in the background: readers
   * never wait for a periodic reload. After a change, readers wait for the new load.
   */
  async current(): Promise<Snapshot> {
    const look = this.look();
    if (look) await look;
    const held = this.held;
    if (held && held.version === this.version) {
      if (this.reloadDue(held)) {
        // A failed reload leaves the catalogue as it is; the next read past the time tries again.
        this.reload().catch(() => undefined);
      }
      return held.snapshot;
    }
    return this.reload();
  }

  private async page(request: NormalisedListQuery): Promise<ListAnswer> {
    const look = this.look();
    if (look) await look;
    const { key } = request;
    const kept = this.pages.get(key);
    if (kept) return kept;
    const running = this.computing.get(key);
    if (running && running.version === this.version) return running.promise;
    const version = this.version;
    const promise = this.current()
      .then((snapshot) => computeListPage(snapshot, request, this.categoriesWithCounts))
      .then((page) => {
        const answer: ListAnswer = {
          page,
          bytes: Buffer.from(JSON.stringify(envelope('Products retrieved', page))),
          version,
        };
        if (version === this.version) setNewest(this.pages, key, answer, MAX_PAGES);
        return answer;
      });
    this.computing.set(key, { version, promise });
    try {
      return await promise;
    } finally {
      if (this.computing.get(key)?.promise === promise) this.computing.delete(key);
    }
  }

  private productText(product: ProductView): Buffer {
    let text = this.productBytes.get(product);
    if (text === undefined) {
      text = Buffer.from(JSON.stringify(envelope('Product retrieved', { product })));
      setNewest(this.productBytes, product, text, MAX_PRODUCT_PAGES);
    }
    return text;
  }

  /** The one look at other instances' changes (undefined when none is due). */
  private look(): Promise<void> | undefined {
    return this.remote?.lookForChanges();
  }

  private changedHere(change: CatalogueChange): void {
    if (change.kind === 'stock') this.stockMoved(change.productId, change.stock);
    else if (change.kind === 'batches') this.batchesChanged(change.productId, change.batches);
    else this.changed();
    this.remote?.changed();
  }

  /** The catalogue changed: every page goes, and the next read loads the catalogue again. */
  private changed(): void {
    this.version += 1;
    this.pages.clear();
    this.urls.clear();
  }

  /**
   * An order moved stock: the pages go; the held catalogue takes the product's new stock in place
   * when it is newer than what it shows.
   */
  private stockMoved(productId: string, stock: StockLevel): void {
    const held = this.held;
    // A load under way may have read the product before this change: its result will not serve.
    const stillCurrent = held?.version === this.version && !this.loading;
    const entry = held?.snapshot.byId.get(productId);
    if (entry && stock.seq > entry.stockSeq) {
      this.productBytes.delete(entry.view);
      entry.view = { ...entry.view, productQuantity: stock.quantity };
      entry.stockSeq = stock.seq;
    }
    this.changed();
    if (held && stillCurrent) held.version = this.version;
  }

  /** A product's bookable batches changed: the pages go; the held catalogue is adjusted in place. */
  private batchesChanged(productId: string, batches: BookableBatchRef[]): void {
    const held = this.held;
    const stillCurrent = held?.version === this.version && !this.loading;
    const entry = held?.snapshot.byId.get(productId);
    if (entry) withBatches(entry, batches);
    this.changed();
    if (held && stillCurrent) held.version = this.version;
  }

  /** Past the reload time (and at least RELOAD_SPACING times the last load's time). */
  private reloadDue(held: Held): boolean {
    return this.now() - held.loadedAt >= Math.max(this.reloadAfterMs, RELOAD_SPACING * held.loadMs);
  }

  private reload(): Promise<Snapshot> {
    return (this.loading ??= this.readCatalogue().finally(() => (this.loading = undefined)));
  }

  private async readCatalogue(): Promise<Snapshot> {
    const version = this.version;
    const periodic = this.held?.version === version;
    const startedAt = this.now();
    const { products, categories } = await this.load();
    const snapshot = buildSnapshot(products, categories);
    // The pages of the catalogue held before (its views) go with it.
    this.productBytes.clear();
    const unchanged = this.version === version;
    // A periodic reload replaces the catalogue pages were made from: they go with a new version.
    if (unchanged && periodic) this.changed();
    // Loaded across a change, it may predate it: kept, but not current (the next read loads again).
    this.held = {
      snapshot,
      version: unchanged ? this.version : version,
      loadedAt: startedAt,
      loadMs: this.now() - startedAt,
    };
    return snapshot;
  }
}
