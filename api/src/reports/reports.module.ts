import { Module } from '@nestjs/common';
import { BatchesModule } from '../batches/batches.module';
import { OrdersModule } from '../orders/orders.module';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';
import { SalesRollup } from './sales-rollup';

@Module({
  imports: [OrdersModule, BatchesModule],
  controllers: [ReportsController],
  providers: [ReportsService, SalesRollup],
})
export class ReportsModule {}
