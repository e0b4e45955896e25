import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { holdsNoPersonalData } from '../common/personal-data';
import { EtimsDevicesStore } from './etims-devices.store';
import { EtimsDocumentsRepository } from './etims-documents.repository';
import { EtimsItemsRepository } from './etims-items.repository';
import { EtimsItems } from './etims-items.service';
import { EtimsPersonalData } from './etims-personal-data';
import { EtimsQueue } from './etims-queue.service';
import {
  ETIMS_STOCK_COLLECTION,
  ETIMS_STOCK_CURSORS_COLLECTION,
  EtimsStockRepository,
} from './etims-stock.repository';
import { EtimsStock } from './etims-stock.service';

/**
 * KRA eTIMS (issue 45, docs/etims.md): the signing queue (`etims_documents`, one per document,
 * numbered gap-free per branch) and its sender sweep against OSCU. With ETIMS_ENV=off (the
 * default) it writes and sends nothing. The stock movements KRA asks for after each sale follow
 * from the signed documents (`etims_stock_moves`, the `etims.stock-due` sweep).
 */
@Module({
  // The catalogue's products: what is left of an item after a stock movement.
  imports: [CatalogModule],
  providers: [
    // The stock movements told to KRA carry items and sums, no one's data.
    holdsNoPersonalData(ETIMS_STOCK_COLLECTION, ETIMS_STOCK_CURSORS_COLLECTION),
    EtimsStock,
    EtimsStockRepository,
    EtimsQueue,
    EtimsItems,
    EtimsItemsRepository,
    EtimsDocumentsRepository,
    EtimsDevicesStore,
    EtimsPersonalData,
  ],
  exports: [EtimsQueue, EtimsItems],
})
export class EtimsModule {}
