import { Injectable } from '@nestjs/common';
import { isObjectId } from '../common/parse-object-id.pipe';
import type { OrderableProduct } from './catalog.types';
import { CatalogSnapshot } from './catalog-snapshot';
import { ProductListCache } from './product-list.cache';
import { ProductsRepository } from './products.repository';

/**
 * What other modules ask of the catalog: products as an order needs them (orders), and word of a
 * stock change made elsewhere (the inventory), so that the catalogue in memory keeps in step.
 */
@Injectable()
export class CatalogService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly listCache: ProductListCache,
    private readonly snapshot: CatalogSnapshot,
  ) {}

  /** The products with these ids that exist (ids that are not ObjectIds are left out). */
  findForOrder(ids: string[]): Promise<OrderableProduct[]> {
    const valid = ids.filter(isObjectId).map((id) => id.toLowerCase());
    return valid.length ? this.products.findOrderable(valid) : Promise.resolve([]);
  }

  /** A product's stock moved by `delta` (not 0): the catalogue in memory and the lists follow. */
  stockChanged(productId: string, delta: number): void {
    this.snapshot.adjustStock(productId, delta);
    this.listCache.clearLists();
  }
}
