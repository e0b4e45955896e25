import { Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CatalogService } from './catalog.service';
import { CategoriesController } from './categories.controller';
import { CategoriesRepository } from './categories.repository';
import { CategoriesService } from './categories.service';
import { CatalogReadModel } from './read-model/catalog-read-model';
import { CatalogueEvents, ProductListCache } from './read-model/catalogue-events';
import { CatalogSync } from './read-model/catalogue-sync';
import { ProductsController } from './products.controller';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';
import { Category, CategorySchema } from './schemas/category.schema';
import { Product, ProductSchema } from './schemas/product.schema';
import { StockMovement, StockMovementSchema } from './schemas/stock-movement.schema';
import { StockController } from './stock.controller';
import { StockLedgerReconciler } from './stock-ledger.reconciler';
import { StockService } from './stock.service';
import { LowStockDigest } from './low-stock.digest';
import { UsersModule } from '../users/users.module';

/** Categories, products and their images; other modules use {@link CatalogService}. */
@Module({
  imports: [
    UsersModule,
    MongooseModule.forFeature([
      { name: Category.name, schema: CategorySchema },
      { name: Product.name, schema: ProductSchema },
      { name: StockMovement.name, schema: StockMovementSchema },
    ]),
  ],
  controllers: [CategoriesController, ProductsController, StockController],
  providers: [
    CategoriesRepository,
    ProductsRepository,
    CategoriesService,
    ProductsService,
    CatalogService,
    StockService,
    StockLedgerReconciler,
    LowStockDigest,
    CatalogueEvents,
    ProductListCache,
    {
      provide: CatalogReadModel,
      inject: [
        ProductsRepository,
        CategoriesService,
        CatalogueEvents,
        getConnectionToken(),
        APP_CONFIG,
      ],
      useFactory: (
        products: ProductsRepository,
        categories: CategoriesService,
        events: CatalogueEvents,
        connection: Connection,
        config: AppConfig,
      ) =>
        new CatalogReadModel(
          () => products.snapshotData(),
          async (counts) => (await categories.list({}, counts)).items,
          events,
          // Other API instances' catalog and stock changes reach this one's memory.
          (heard) => new CatalogSync(connection, config.catalogSyncIntervalMs, heard),
        ),
    },
  ],
  exports: [CatalogService, CatalogReadModel, CatalogueEvents],
})
export class CatalogModule implements BeforeApplicationShutdown {
  constructor(private readonly readModel: CatalogReadModel) {}

  /**
   * The last changes are announced while the database is still connected (a script such as the
   * seed closes the app right after its writes; the announcement waits up to a quarter interval).
   */
  beforeApplicationShutdown(): Promise<void> {
    return this.readModel.announced();
  }
}
