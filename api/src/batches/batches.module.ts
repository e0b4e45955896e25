import { BatchListsRepository } from './batch-lists.repository';
import { BatchHold } from './batch-hold';
import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { InventoryModule } from '../inventory/inventory.module';
import { StockMovement, StockMovementSchema } from '../inventory/schemas/stock-movement.schema';
import { BatchesRepository } from './batches.repository';
import { BatchesService } from './batches.service';
import { BatchFollowUps } from './batch-follow-ups';
import { BatchFollowUpsRepository } from './batch-follow-ups.repository';
import { Batch, BatchSchema } from './schemas/batch.schema';
import { holdsNoPersonalData } from '../common/personal-data';

/**
 * Batches of seedlings still growing and the bookings' holds against them (the batch's side only):
 * orders hold and release through {@link BatchesService}; the staff routes and the public reads sit
 * in the batch desk module, which also tells the bookings' life.
 */
@Module({
  imports: [
    CatalogModule,
    InventoryModule,
    MongooseModule.forFeature([
      { name: Batch.name, schema: BatchSchema },
      { name: StockMovement.name, schema: StockMovementSchema },
    ]),
  ],
  providers: [
    BatchesRepository,
    BatchFollowUpsRepository,
    BatchListsRepository,
    BatchFollowUps,
    BatchesService,
    BatchHold,
    holdsNoPersonalData('batches'),
  ],
  exports: [BatchesService, BatchHold],
})
export class BatchesModule {}
