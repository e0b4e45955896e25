import { Injectable } from '@nestjs/common';
import type { SeasonKey } from '@spc/shared-contracts';
import type { BookableBatchRef } from '../catalog.types';

/** What the batches tell the catalogue when it loads: each product's bookable batches. */
export interface BatchSource {
  /** Every product's bookable batches, soonest first. */
  bookable(): Promise<Map<string, BookableBatchRef[]>>;
  /** The ready days that count as the coming season's (for the list's availability filter). */
  seasonWindow(key: SeasonKey): { readyFrom: string; readyTo: string };
}

/**
 * Where the catalogue in memory reads the batches from. The batches module (which sits above the
 * catalogue: it holds against products) plugs itself in at start-up; until then, and in a process
 * without it, no product has a bookable batch. Changes after the load arrive as events
 * (`CatalogueEvents.batchesChanged`).
 */
@Injectable()
export class CatalogueBatches {
  private source?: BatchSource;

  use(source: BatchSource): void {
    this.source = source;
  }

  async bookable(): Promise<Map<string, BookableBatchRef[]>> {
    return (await this.source?.bookable()) ?? new Map();
  }

  /** The season's window, or null without the batches (nothing is bookable then). */
  seasonWindow(key: SeasonKey): { readyFrom: string; readyTo: string } | null {
    return this.source?.seasonWindow(key) ?? null;
  }
}
