import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { DEFAULT_UNIT_NAME } from '@spc/shared-contracts';
import type { Seeder } from './seed.types';
import { ImageService, type PreparedImage } from '../storage/image.service';
import { CategoriesRepository } from '../catalog/categories.repository';
import type { ProductFields, ProductImageFields } from '../catalog/catalog.types';
import { CatalogueEvents } from '../catalog/read-model/catalogue-events';
import { readUnits } from '../catalog/product-units';
import { ProductsRepository } from '../catalog/products.repository';
import { Product } from '../catalog/schemas/product.schema';
import { DEMO_CATEGORIES, demoProducts, type DemoProduct } from './demo-catalog';
import { renderPicture } from './product-picture';

/** Widths stored for a demo picture (uploads get one more, 1024). */
const DEMO_IMAGE_WIDTHS = [320, 640];
/** Products whose pictures are encoded together and then inserted in one write. */
const BATCH = 48;
/** Pictures encoded at once (sharp spreads each over the machine's cores as well). */
const CONCURRENCY = 4;

/**
 * The demo catalogue: the five home-page categories and 400-odd nursery products, each with a
 * picture drawn in code; a variety's seedlings are sold by the seedling and by the tray (sale units
 * checked by the product form's own rules), many with quantity tiers. Idempotent: categories are
 * matched by name, and only products whose names are missing are added, so seeding twice adds nothing.
 *
 * Seeders are built in the seed module's scope, which sees only global providers; the catalog's
 * repositories are therefore looked up when seeding runs.
 */
@Injectable()
export class CatalogSeeder implements Seeder {
  readonly name = 'catalog';

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly images: ImageService,
  ) {}

  async seed(): Promise<string> {
    const started = Date.now();
    const categories = this.moduleRef.get(CategoriesRepository, { strict: false });
    const products = this.moduleRef.get(ProductsRepository, { strict: false });

    const categoryIds = new Map<string, string>();
    let categoriesAdded = 0;
    for (const { name, description } of DEMO_CATEGORIES) {
      let category = await categories.findByName(name);
      if (!category) {
        category = await categories.create({ name, description });
        categoriesAdded += 1;
      }
      categoryIds.set(name, category._id);
    }

    const all = demoProducts();
    const existing = await products.existingNames(all.map((p) => p.productName));
    const missing = all.filter((p) => !existing.has(p.productName));

    // One drawing per variety, shared by its sizes; each product still stores its own files, so
    // deleting one product never takes another's picture with it.
    // Drawn, checked and encoded once a variety, as an upload is (ImageService.prepare).
    const pictures = new Map<string, Promise<PreparedImage>>();
    const pictureOf = (product: DemoProduct) => {
      let picture = pictures.get(product.variety);
      if (!picture) {
        const category = DEMO_CATEGORIES.find((c) => c.name === product.category)!;
        picture = renderPicture({
          name: product.variety,
          categoryColour: category.colour,
          accent: product.accent,
          blooms: product.category === 'Flowers' || product.category === 'Fruits',
        }).then((drawn) => this.images.prepare(drawn, DEMO_IMAGE_WIDTHS, 640));
        pictures.set(product.variety, picture);
      }
      return picture;
    };

    let added = 0;
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const records = await mapWithConcurrency(batch, CONCURRENCY, async (product) => {
        const id = products.newId();
        const stored = await this.images.put(await pictureOf(product), `products/${id}`);
        const image: ProductImageFields = {
          productImage: stored.url,
          productImages: Object.fromEntries(
            Object.entries(stored.urls).map(([width, url]) => [String(width), url]),
          ),
          imageKeys: stored.keys,
        };
        const fields: ProductFields = {
          productName: product.productName,
          productDescription: product.productDescription,
          price: product.price,
          onOffer: product.onOffer,
          offerPrice: product.offerPrice,
          productQuantity: product.productQuantity,
          category: categoryIds.get(product.category)!,
          units: unitsOf(id, product),
          itemClassCode: DEMO_CATEGORIES.find((c) => c.name === product.category)!.itemClassCode,
        };
        return { id, fields, image };
      });
      added += await products.insertMany(records);
    }
    this.moduleRef.get(CatalogueEvents, { strict: false }).changed();

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return (
      `${DEMO_CATEGORIES.length} categories (${categoriesAdded} added), ` +
      `${all.length} products (${added} added, ${existing.size} already there) in ${seconds} s`
    );
  }

  /** Products, those sold by a unit beyond the single seedling (a tray), those with tiers. */
  async counts(): Promise<string> {
    const products = this.moduleRef.get<Model<Product>>(getModelToken(Product.name), {
      strict: false,
    });
    const [all, withUnits, withTiers] = await Promise.all([
      products.countDocuments({}),
      products.countDocuments({ 'units.1': { $exists: true } }),
      products.countDocuments({ 'units.tiers.0': { $exists: true } }),
    ]);
    return `${all} products (${withUnits} sold by the tray too, ${withTiers} with quantity tiers)`;
  }
}

/** A demo product's units (its single seedling, then its trays), checked as the product form checks them. */
function unitsOf(id: string, product: DemoProduct) {
  if (!product.tiers.length && !product.trays.length) return undefined;
  return readUnits(
    [{ name: DEFAULT_UNIT_NAME, seedlings: 1, tiers: product.tiers }, ...product.trays],
    { id, price: product.price, onOffer: product.onOffer, offerPrice: product.offerPrice },
    [],
  );
}

async function mapWithConcurrency<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
