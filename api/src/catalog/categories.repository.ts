import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Types, type Model } from 'mongoose';
import { escapeRegExp } from '../common/pagination';
import { Category } from './schemas/category.schema';
import { Product } from './schemas/product.schema';
import type { CategoryRef, CategoryView } from './catalog.types';

type LeanCategory = Category & { _id: Types.ObjectId };

function toView(doc: LeanCategory, productCount: number): CategoryView {
  return {
    _id: doc._id.toString(),
    name: doc.name,
    description: doc.description ?? '',
    productCount,
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
  };
}

/** The only place that touches the categories collection; returns plain views, never documents. */
@Injectable()
export class CategoriesRepository {
  constructor(
    @InjectModel(Category.name) private readonly categories: Model<Category>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
  ) {}

  async create(data: { name: string; description: string }): Promise<CategoryView> {
    const doc = await this.categories.create({ ...data, nameKey: nameKey(data.name) });
    return toView(doc.toObject() as LeanCategory, 0);
  }

  async findById(id: string): Promise<CategoryView | null> {
    const doc = await this.categories.findById(id).lean<LeanCategory>();
    return doc ? toView(doc, await this.countProducts(id)) : null;
  }

  async findByName(name: string): Promise<CategoryView | null> {
    const doc = await this.categories.findOne({ nameKey: nameKey(name) }).lean<LeanCategory>();
    return doc ? toView(doc, await this.countProducts(doc._id.toString())) : null;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.categories.exists({ _id: id })) !== null;
  }

  /**
   * Categories by name, each with its number of products: `counts` (per category id, or a promise
   * of them) when the caller has them, else counted here. Every category unless a `limit` is given.
   */
  async list(
    options: {
      skip?: number;
      limit?: number;
      /** Part of the name or description, any case, matched literally. */
      search?: string;
      counts?: Record<string, number> | Promise<Record<string, number>>;
    } = {},
  ): Promise<{ items: CategoryView[]; total: number }> {
    const pattern = options.search ? new RegExp(escapeRegExp(options.search), 'i') : undefined;
    const filter = pattern ? { $or: [{ name: pattern }, { description: pattern }] } : {};
    let query = this.categories
      .find(filter)
      .sort({ nameKey: 1 })
      .skip(options.skip ?? 0);
    if (options.limit !== undefined) query = query.limit(options.limit);
    const [docs, counts, total] = await Promise.all([
      query.lean<LeanCategory[]>(),
      options.counts ?? this.productCounts(),
      options.limit !== undefined ? this.categories.countDocuments(filter) : undefined,
    ]);
    return {
      items: docs.map((doc) => toView(doc, counts[doc._id.toString()] ?? 0)),
      total: total ?? docs.length,
    };
  }

  /** Names of these categories, for products to carry (one query for all of them). */
  async refs(ids: string[]): Promise<Map<string, CategoryRef>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const docs = await this.categories
      .find({ _id: { $in: unique } })
      .select('name')
      .lean<LeanCategory[]>();
    return new Map(docs.map((d) => [d._id.toString(), { _id: d._id.toString(), name: d.name }]));
  }

  async update(
    id: string,
    changes: { name?: string; description?: string },
  ): Promise<CategoryView | null> {
    const set = {
      ...changes,
      ...(changes.name !== undefined ? { nameKey: nameKey(changes.name) } : {}),
    };
    const doc = await this.categories
      .findByIdAndUpdate(id, { $set: set }, { new: true, runValidators: true })
      .lean<LeanCategory>();
    return doc ? toView(doc, await this.countProducts(id)) : null;
  }

  async delete(id: string): Promise<CategoryView | null> {
    const doc = await this.categories.findByIdAndDelete(id).lean<LeanCategory>();
    return doc ? toView(doc, 0) : null;
  }

  countProducts(id: string): Promise<number> {
    return this.products.countDocuments({ category: new Types.ObjectId(id) });
  }

  private async productCounts(): Promise<Record<string, number>> {
    const rows = await this.products.aggregate<{ _id: Types.ObjectId; count: number }>([
      { $group: { _id: '$category', count: { $sum: 1 } } },
    ]);
    return Object.fromEntries(rows.map((row) => [String(row._id), row.count]));
  }
}

/** Case and surrounding spaces do not make a different name. */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
