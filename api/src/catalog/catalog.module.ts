import { Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CatalogAnswers } from './catalog-answers';
import { CatalogService } from './catalog.service';
import { CategoriesController } from './categories.controller';
import { CategoriesRepository } from './categories.repository';
import { CategoriesService } from './categories.service';
import { CatalogSnapshot } from './catalog-snapshot';
import { CatalogSync } from './catalog-sync';
import { ProductListCache } from './product-list.cache';
import { ProductsController } from './products.controller';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';
import { Category, CategorySchema } from './schemas/category.schema';
import { Product, ProductSchema } from './schemas/product.schema';
import { StockLedgerModule } from '../inventory/stock-ledger.module';

/** Categories, products and their images; other modules use {@link CatalogService}. */
@Module({
  imports: [
    StockLedgerModule,
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
      inject: [ProductsRepository, ProductListCache, getConnectionToken(), APP_CONFIG],
      useFactory: (
        products: ProductsRepository,
        cache: ProductListCache,
        connection: Connection,
        config: AppConfig,
      ) => {
        const snapshot = new CatalogSnapshot(() => products.snapshotData());
        cache.onCatalogChange(() => snapshot.invalidate());
        // Other API instances' catalog and stock changes reach this one's memory (see CatalogSync).
        const sync = new CatalogSync(connection, config.catalogSyncIntervalMs, () =>
          cache.forgetAll(),
        );
        cache.attachFeed(sync);
        snapshot.syncBeforeRead(() => sync.beforeRead());
        return snapshot;
      },
    },
    {
      // Product lists and product pages sent again without Nest's pipeline (see CatalogAnswers).
      provide: CatalogAnswers,
      inject: [ProductListCache, CatalogSnapshot],
      useFactory: (cache: ProductListCache, snapshot: CatalogSnapshot) => {
        const answers = new CatalogAnswers(snapshot);
        cache.onListsDropped(() => answers.lists.clear());
        answers.lists.lookBeforeServing(() => cache.lookBeforeRead());
        return answers;
      },
    },
  ],
  // The inventory (stock routes) reads products and keeps the lists in step.
  exports: [CatalogService, CatalogAnswers, ProductsRepository, ProductListCache],
})
export class CatalogModule implements BeforeApplicationShutdown {
  constructor(private readonly lists: ProductListCache) {}

  /**
   * The last changes are announced while the database is still connected (a script such as the
   * seed closes the app right after its writes; the announcement waits up to a quarter interval).
   */
  beforeApplicationShutdown(): Promise<void> {
    return this.lists.announced();
  }
}
