import { Module } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { OrdersModule } from '../orders/orders.module';
import { BatchDeskService } from './batch-desk.service';
import { BatchesController, BookableBatchesController } from './batches.controller';
import { BatchesModule } from './batches.module';

/**
 * The batch routes: staff's (each step on the batch, then the bookings told, then audited) and
 * the public reads. Apart from {@link BatchesModule} because they reach the orders, which hold
 * against batches.
 */
@Module({
  imports: [BatchesModule, OrdersModule, BookingsModule],
  controllers: [BatchesController, BookableBatchesController],
  providers: [BatchDeskService],
})
export class BatchDeskModule {}
