import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { BatchDeskService } from './batch-desk.service';
import { BatchesController, BookableBatchesController } from './batches.controller';
import { BatchesModule } from './batches.module';

/**
 * The batch routes: staff's (each step on the batch, then announced: the audit trail and the
 * bookings listen) and the public reads. Apart from {@link BatchesModule} because they reach the orders, which hold
 * against batches.
 */
@Module({
  imports: [BatchesModule, OrdersModule],
  controllers: [BatchesController, BookableBatchesController],
  providers: [BatchDeskService],
})
export class BatchDeskModule {}
