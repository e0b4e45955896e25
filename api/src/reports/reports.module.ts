import { Module } from '@nestjs/common';
import { BatchesModule } from '../batches/batches.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { OrdersModule } from '../orders/orders.module';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';
import { SalesRollup } from './sales-rollup';
import { holdsNoPersonalData } from '../common/personal-data';

@Module({
  imports: [OrdersModule, BatchesModule, InvoicesModule],
  controllers: [ReportsController],
  providers: [
    ReportsService,
    SalesRollup,
    holdsNoPersonalData('sales_days', 'sales_months', 'sales_rollup_state'),
  ],
})
export class ReportsModule {}
