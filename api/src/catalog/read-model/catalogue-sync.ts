import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Connection, mongo } from 'mongoose';
import type { RemoteChanges } from './catalog-read-model';

export const CATALOG_VERSIONS_COLLECTION = 'catalog_versions';

/** Versions of instances not heard from for this long are removed (restarted processes). */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
/** How long a read waits for the check of other instances' changes before answering from memory. */
const MAX_WAIT_MS = 250;

interface VersionDoc {
  _id: string;
  version: number;
  at: Date;
}

/**
 * Tells the API instances sharing one database about each other's catalog and stock changes, so the
 * read model (lists, product pages and the catalogue held in memory) of one instance never lags
 * another's writes by more than the interval and a quarter (writes are announced at most every
 * quarter interval, plus one database write).
 *
 * Each instance owns one document in `catalog_versions` holding a counter that only it writes, one
 * write at a time: no two writers ever touch the same document. Before serving a read, an instance looks at the others' counters
 * when it has not looked for `intervalMs`; a counter that moved means the catalogue must be read
 * again.
 */
export class CatalogSync implements RemoteChanges {
  readonly instanceId = randomUUID();
  private readonly logger = new Logger('CatalogSync');
  private version = 0;
  private published = 0;
  private publishedAt = Number.NEGATIVE_INFINITY;
  private publishing?: Promise<void>;
  private readonly seen = new Map<string, number>();
  private lastCheck = Number.NEGATIVE_INFINITY;
  private checking?: Promise<void>;

  constructor(
    private readonly connection: Connection,
    private readonly intervalMs: number,
    private readonly onRemoteChange: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** This instance wrote the catalogue or its stock: the others are told (writes coalesce). */
  changed(): void {
    this.version += 1;
    this.publishing ??= this.publish().finally(() => (this.publishing = undefined));
  }

  /**
   * The look at the others' changes, before a read served from memory: undefined when the others
   * were looked at less than the interval ago, otherwise the look (shared by concurrent reads).
   */
  lookForChanges(): Promise<void> | undefined {
    if (this.now() - this.lastCheck < this.intervalMs) return undefined;
    const checking = (this.checking ??= this.check().finally(() => (this.checking = undefined)));
    // A database that is slow to answer, or away (a query then waits for the driver's server
    // selection, 2.5 s), holds answers from memory back for at most MAX_WAIT_MS; the check goes on.
    return Promise.race([
      checking,
      new Promise<void>((resolve) => setTimeout(resolve, MAX_WAIT_MS).unref()),
    ]);
  }

  /**
   * Resolves once the announcement under way is over (tests, and the catalog module before
   * shutdown): every change made so far written, or the write failed (logged; the change is then
   * announced with the next one, and other instances see it at the latest on their periodic reload).
   */
  async flush(): Promise<void> {
    while (this.publishing) await this.publishing;
  }

  private async publish(): Promise<void> {
    while (this.published < this.version) {
      // At most one write per quarter interval: under a burst of orders every change since the last
      // write goes in the next one (others look only once an interval anyway), instead of one
      // database write per order.
      const wait = this.publishedAt + this.intervalMs / 4 - this.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const version = this.version;
      try {
        await this.versions().updateOne(
          { _id: this.instanceId },
          { $set: { version, at: new Date(this.now()) } },
          { upsert: true },
        );
        if (this.published === 0) {
          await this.versions().deleteMany({ at: { $lt: new Date(this.now() - FORGET_AFTER_MS) } });
        }
        this.published = version;
        this.publishedAt = this.now();
      } catch (error) {
        this.logger.warn(`Could not announce a catalog change: ${(error as Error).message}`);
        return;
      }
    }
  }

  private async check(): Promise<void> {
    const startedAt = this.now();
    try {
      const docs = await this.versions()
        .find({ _id: { $ne: this.instanceId } })
        .toArray();
      let changed = false;
      for (const doc of docs) {
        if (this.seen.get(doc._id) !== doc.version) changed = true;
        this.seen.set(doc._id, doc.version);
      }
      this.lastCheck = startedAt;
      if (changed) this.onRemoteChange();
    } catch (error) {
      // The database is away: serve what is in memory and look again after the interval.
      this.lastCheck = startedAt;
      this.logger.warn(
        `Could not read other instances' catalog changes: ${(error as Error).message}`,
      );
    }
  }

  private versions(): mongo.Collection<VersionDoc> {
    return this.connection.db!.collection<VersionDoc>(CATALOG_VERSIONS_COLLECTION);
  }
}
