import { Injectable } from '@nestjs/common';
import { isObjectId } from '../common/parse-object-id.pipe';
import type { OrderableProduct } from './catalog.types';
import { ProductsRepository } from './products.repository';
import { CatalogueEvents } from './read-model/catalogue-events';

/**
 * What other modules ask of the catalog: products as an order needs them (orders), and word of a
 * stock change made elsewhere (the inventory), so that the catalogue in memory keeps in step.
 */
@Injectable()
export class CatalogService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly events: CatalogueEvents,
  ) {}

  /** The products with these ids that exist (ids that are not ObjectIds are left out). */
  findForOrder(ids: string[]): Promise<OrderableProduct[]> {
    const valid = ids.filter(isObjectId).map((id) => id.toLowerCase());
    return valid.length ? this.products.findOrderable(valid) : Promise.resolve([]);
  }

  /** A product's stock moved by `delta` (not 0): the catalogue in memory and the lists follow. */
  stockChanged(productId: string, delta: number): void {
    this.events.stockMoved(productId, delta);
  }
}
