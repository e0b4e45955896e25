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
import { CatalogueBatches } from './read-model/catalogue-batches';
import { CatalogueEvents } from './read-model/catalogue-events';
import { CatalogSync } from './read-model/catalogue-sync';
import { ProductsController } from './products.controller';
import { DELETED_PRODUCTS_COLLECTION, ProductsRepository } from './products.repository';
import { withBatches } from './read-model/catalogue-snapshot';
import { ProductsService } from './products.service';
import { Category, CategorySchema } from './schemas/category.schema';
import { Product, ProductSchema } from './schemas/product.schema';
import { StockLedgerModule } from '../inventory/stock-ledger.module';
import { holdsNoPersonalData } from '../common/personal-data';
import { TaxSettingsController } from './tax-settings.controller';
import { TaxSettingsRepository, TAX_SETTINGS_COLLECTION } from './tax-settings.repository';
import { TaxSettingsService } from './tax-settings.service';

/**
 * Categories, products, their images and tax types (with the shop's default); other modules use
 * {@link CatalogService}.
 */
@Module({
  imports: [
    StockLedgerModule,
    MongooseModule.forFeature([
      { name: Category.name, schema: CategorySchema },
      { name: Product.name, schema: ProductSchema },
    ]),
  ],
  controllers: [CategoriesController, ProductsController, TaxSettingsController],
  providers: [
    holdsNoPersonalData(
      'categories',
      'catalog_versions',
      TAX_SETTINGS_COLLECTION,
      DELETED_PRODUCTS_COLLECTION,
    ),
    TaxSettingsRepository,
    TaxSettingsService,
    CategoriesRepository,
    ProductsRepository,
    CategoriesService,
    ProductsService,
    CatalogService,
    CatalogueEvents,
    CatalogueBatches,
    {
      provide: CatalogReadModel,
      inject: [
        ProductsRepository,
        CategoriesService,
        CatalogueEvents,
        CatalogueBatches,
        getConnectionToken(),
        APP_CONFIG,
      ],
      useFactory: (
        products: ProductsRepository,
        categories: CategoriesService,
        events: CatalogueEvents,
        batches: CatalogueBatches,
        connection: Connection,
        config: AppConfig,
      ) => {
        const model = new CatalogReadModel(
          async () => {
            const [data, bookable] = await Promise.all([
              products.snapshotData(),
              batches.bookable(),
            ]);
            for (const product of data.products) {
              const own = bookable.get(product.view._id);
              if (own) withBatches(product, own);
            }
            return data;
          },
          async (counts) => (await categories.list({}, counts)).items,
          events,
          // Other API instances' catalog and stock changes reach this one's memory.
          (heard) => new CatalogSync(connection, config.catalogSyncIntervalMs, heard),
        );
        model.seasonWindow = (key) => batches.seasonWindow(key);
        return model;
      },
    },
  ],
  // The inventory (stock routes) reads products and announces its changes to the read model; the
  // batches plug into the catalogue's load (CatalogueBatches) and announce their changes too.
  exports: [
    CatalogService,
    CatalogReadModel,
    CatalogueEvents,
    CatalogueBatches,
    ProductsRepository,
    // The shop's default tax type, for what signs sales with eTIMS.
    TaxSettingsService,
  ],
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
