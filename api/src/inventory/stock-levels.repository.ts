import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import { stockInUnits } from '@spc/shared-contracts';
import { Product } from '../catalog/schemas/product.schema';

type LevelFields = Pick<
  Product,
  'productName' | 'productQuantity' | 'lowStockThreshold' | 'units'
> & {
  _id: Types.ObjectId;
};

/** Each product's low-stock threshold, and which products are at or below theirs. */
@Injectable()
export class StockLevelsRepository {
  constructor(@InjectModel(Product.name) private readonly products: Model<Product>) {}

  /**
   * The product's per-product low-stock threshold (null: the shop's default). Answers the product
   * document as it is after it (for its view), null when there is no such product.
   */
  setLowStockThreshold(id: string, threshold: number | null): Promise<object | null> {
    return this.products
      .findOneAndUpdate({ _id: id }, { $set: { lowStockThreshold: threshold } }, { new: true })
      .lean<object>();
  }

  async lowStockThresholdOf(id: string): Promise<number | null | undefined> {
    const doc = await this.products
      .findById(id)
      .select('lowStockThreshold')
      .lean<Pick<LevelFields, 'lowStockThreshold'>>();
    return doc ? (doc.lowStockThreshold ?? null) : undefined;
  }

  /**
   * Products whose stock is at or below their threshold (their own, else `defaultThreshold`),
   * fewest first.
   */
  async lowStock(defaultThreshold: number): Promise<
    {
      _id: string;
      productName: string;
      productQuantity: number;
      threshold: number;
      inUnits: string;
    }[]
  > {
    const threshold = { $ifNull: ['$lowStockThreshold', defaultThreshold] };
    const docs = await this.products
      .find({ $expr: { $lte: [{ $ifNull: ['$productQuantity', 0] }, threshold] } })
      .select('productName productQuantity lowStockThreshold units')
      .sort({ productQuantity: 1, productName: 1 })
      .lean<LevelFields[]>();
    return docs.map((doc) => ({
      _id: doc._id.toString(),
      productName: doc.productName,
      productQuantity: doc.productQuantity ?? 0,
      threshold: doc.lowStockThreshold ?? defaultThreshold,
      inUnits: stockInUnits(doc.productQuantity ?? 0, doc.units ?? []),
    }));
  }
}
