import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogService } from './catalog.service';
import { CategoriesController } from './categories.controller';
import { CategoriesRepository } from './categories.repository';
import { CategoriesService } from './categories.service';
import { CatalogSnapshot } from './catalog-snapshot';
import { ProductListCache } from './product-list.cache';
import { ProductsController } from './products.controller';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';
import { Category, CategorySchema } from './schemas/category.schema';
import { Product, ProductSchema } from './schemas/product.schema';

/** Categories, products and their images; other modules use {@link CatalogService}. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Category.name, schema: CategorySchema },
      { name: Product.name, schema: ProductSchema },
    ]),
  ],
  controllers: [CategoriesController, ProductsController],
  providers: [
    CategoriesRepository,
    ProductsRepository,
    CategoriesService,
    ProductsService,
    CatalogService,
    { provide: ProductListCache, useFactory: () => new ProductListCache() },
    {
      provide: CatalogSnapshot,
      inject: [ProductsRepository, ProductListCache],
      useFactory: (products: ProductsRepository, cache: ProductListCache) => {
        const snapshot = new CatalogSnapshot(() => products.snapshotData());
        cache.onCatalogChange(() => snapshot.invalidate());
        return snapshot;
      },
    },
  ],
  exports: [CatalogService],
})
export class CatalogModule {}
