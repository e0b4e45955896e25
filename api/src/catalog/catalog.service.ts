import { Injectable } from '@nestjs/common';
import { isObjectId } from '../common/parse-object-id.pipe';
import type { OrderableProduct, ProductView, StockLevel } from './catalog.types';
import { ProductsRepository } from './products.repository';
import { CatalogReadModel } from './read-model/catalog-read-model';
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
    private readonly readModel: CatalogReadModel,
  ) {}

  /**
   * The products with these ids as the catalogue in memory holds them, when it is current (what
   * the shop shows: this process's own changes at once, other instances' within a second, see
   * CatalogSync); otherwise, and for a product it does not hold (created a moment ago elsewhere),
   * read from the database: never waits for the catalogue to load. What placement prices with,
   * without a read per order; the stock here is only indicative (the reservation's conditional
   * update decides).
   */
  async findForPricing(ids: string[]): Promise<OrderableProduct[]> {
    const valid = [...new Set(ids.filter(isObjectId).map((id) => id.toLowerCase()))];
    const found: OrderableProduct[] = [];
    const unknown: string[] = [];
    for (const id of valid) {
      const view = this.readModel.heldProduct(id);
      if (view) found.push(orderable(view));
      else unknown.push(id);
    }
    return unknown.length ? [...found, ...(await this.products.findOrderable(unknown))] : found;
  }

  /** The products with these ids that exist (ids that are not ObjectIds are left out). */
  findForOrder(ids: string[]): Promise<OrderableProduct[]> {
    const valid = ids.filter(isObjectId).map((id) => id.toLowerCase());
    return valid.length ? this.products.findOrderable(valid) : Promise.resolve([]);
  }

  /**
   * A product's stock moved and is now `stock` (as the write answered it): the catalogue in memory
   * and the lists follow, unless they already show that change or a later one.
   */
  stockChanged(productId: string, stock: StockLevel): void {
    this.events.stockMoved(productId, stock);
  }
}

function orderable(view: ProductView): OrderableProduct {
  return {
    _id: view._id,
    productName: view.productName,
    productImage: view.productImage,
    price: view.price,
    offerPrice: view.offerPrice,
    onOffer: view.onOffer,
    effectivePrice: view.effectivePrice,
    productQuantity: view.productQuantity,
    units: view.units,
  };
}
