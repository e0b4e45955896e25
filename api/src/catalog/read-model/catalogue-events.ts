import { Injectable } from '@nestjs/common';
import type { BookableBatchRef, StockLevel } from '../catalog.types';

/**
 * What changed: the catalogue itself (a product or category written), one product's stock (as the
 * database holds it after the change, with its sequence), or one product's bookable batches (all
 * of them now, soonest first).
 */
export type CatalogueChange =
  | { kind: 'catalogue' }
  | { kind: 'stock'; productId: string; stock: StockLevel }
  | { kind: 'batches'; productId: string; batches: BookableBatchRef[] };

/**
 * "The catalogue changed", announced once by whatever wrote it (products, categories, stock, the
 * seed) and heard by the read model, which answers no read across it. Writers know nothing of
 * caches; listeners run synchronously, so the next read after the write already sees it.
 */
@Injectable()
export class CatalogueEvents {
  private readonly listeners: ((change: CatalogueChange) => void)[] = [];

  /** A product or category was written (or many, by the seed). */
  changed(): void {
    this.emit({ kind: 'catalogue' });
  }

  /** An order took or gave back stock of one product: its stock now, as the write answered it. */
  stockMoved(productId: string, stock: StockLevel): void {
    this.emit({ kind: 'stock', productId, stock });
  }

  /** A product's bookable batches changed (made, booked, released, ready, failed): all of them. */
  batchesChanged(productId: string, batches: BookableBatchRef[]): void {
    this.emit({ kind: 'batches', productId, batches });
  }

  listen(listener: (change: CatalogueChange) => void): void {
    this.listeners.push(listener);
  }

  private emit(change: CatalogueChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
