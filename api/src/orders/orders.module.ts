import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { holdsNoPersonalData } from '../common/personal-data';
import { BatchesModule } from '../batches/batches.module';
import { CatalogModule } from '../catalog/catalog.module';
import { InventoryModule } from '../inventory/inventory.module';
import { DeliveryModule } from '../delivery/delivery.module';
import { EtimsModule } from '../etims/etims.module';
import { MoneyModule } from '../money/money.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { ScansModule } from '../scans/scans.module';
import { UsersModule } from '../users/users.module';
import { CreditLimitUseRepository } from './credit-limit-use.repository';
import { OrderCreditLimit } from './order-credit-limit';
import { OrderEtims } from './order-etims';
import { OrderDeskController } from './order-desk.controller';
import { OrderDeskService } from './order-desk.service';
import { OrderPlacementService } from './order-placement.service';
import { OrdersController } from './orders.controller';
import { OrderDetailService } from './order-detail.service';
import { OrderDocumentLinks } from './order-document-links';
import { OrderDocumentsController } from './order-documents.controller';
import { OrderLpoScanController } from './order-lpo-scan.controller';
import { OrderLpoScans } from './order-lpo-scans';
import { OrderHoldLimits } from './order-hold-limits';
import { PlacementKeys, TillSaleKeys } from './order-idempotency';
import { OrderReconciler } from './order-reconciler';
import { OrderStock } from './order-stock';
import { OrderExpiry } from './order-expiry.service';
import { OrderBookings } from '../bookings/booking-orders';
import { OrderCredits } from './order-credits';
import { OrderFollowUps } from './order-follow-ups';
import { OrderMails } from './order-mails';
import { OrderMoney } from './order-money';
import { OrderSales } from './order-sales';
import { OrdersRepository } from './orders.repository';
import { OrderExportRepository } from './order-export.repository';
import { OrderListsRepository } from './order-lists.repository';
import { OrderLists } from './order-lists';
import { OrderCountRollup } from './order-count-rollup';
import { OrderCountsRepository } from './order-counts.repository';
import { OrderCountRowsRepository } from './order-count-rows.repository';
import { OrderPlacementMarks } from './order-placement-marks.repository';
import { OrderRecoveryRepository } from './order-recovery.repository';
import { OrderSalesRepository } from './order-sales.repository';
import { OrderHoldSlotsRepository } from './order-hold-slots.repository';
import { BookingsRepository } from '../bookings/bookings.repository';
import { BookingHold } from '../bookings/booking-hold';
import { BatchLineHold } from '../batches/batch-line-hold';
import { BookingTerms } from '../bookings/booking-terms';
import { CREDIT_TERMS } from './order-credit-rule';
import { OrderHolds } from './order-holds';
import { OrdersPersonalData } from './orders-personal-data';
import { ORDER_EXPIRY, OrdersService } from './orders.service';
import {
  Order,
  OrderIdempotency,
  OrderIdempotencySchema,
  OrderSchema,
  TillSaleKey,
  TillSaleKeySchema,
} from './schemas/order.schema';
import { OrderRefund, OrderRefundSchema } from './schemas/order-refund.schema';
import { OrderDeletion, OrderDeletionSchema } from './schemas/order-deletion.schema';
import { OrderFromQuotationService } from './order-from-quotation.service';
import { OrderOrganisationPrices } from './order-organisation-prices';
import { TrancheOrders } from './tranche-orders';
import { OrderGateSales } from './order-gate-sales';

@Module({
  imports: [
    BatchesModule,
    CatalogModule,
    InventoryModule,
    DeliveryModule,
    EtimsModule,
    UsersModule,
    MoneyModule,
    OrganisationsModule,
    ScansModule,
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: OrderIdempotency.name, schema: OrderIdempotencySchema },
      { name: TillSaleKey.name, schema: TillSaleKeySchema },
      { name: OrderRefund.name, schema: OrderRefundSchema },
      { name: OrderDeletion.name, schema: OrderDeletionSchema },
    ]),
  ],
  controllers: [
    OrdersController,
    OrderDocumentsController,
    OrderLpoScanController,
    OrderDeskController,
  ],
  providers: [
    OrdersPersonalData,
    OrdersService,
    OrdersRepository,
    OrderListsRepository,
    OrderExportRepository,
    OrderLists,
    OrderCountRollup,
    OrderCountsRepository,
    OrderCountRowsRepository,
    // The order counts' rollup and the deletions it reads: days, counts, order ids and times;
    // what each organisation's open orders from quotations owe against its credit limit.
    holdsNoPersonalData(
      'order_count_days',
      'order_count_months',
      'order_count_state',
      'order_deletions',
      'credit_limit_use',
    ),
    CreditLimitUseRepository,
    OrderCreditLimit,
    OrderPlacementMarks,
    OrderRecoveryRepository,
    OrderSalesRepository,
    OrderHoldSlotsRepository,
    BookingsRepository,
    OrderPlacementService,
    PlacementKeys,
    TillSaleKeys,
    OrderReconciler,
    OrderStock,
    OrderHolds,
    BookingHold,
    BatchLineHold,
    { provide: CREDIT_TERMS, useClass: BookingTerms },
    OrderHoldLimits,
    OrderMoney,
    OrderFromQuotationService,
    OrderOrganisationPrices,
    OrderDetailService,
    OrderDocumentLinks,
    OrderLpoScans,
    OrderDeskService,
    OrderExpiry,
    { provide: ORDER_EXPIRY, useExisting: OrderExpiry },
    OrderSales,
    OrderCredits,
    OrderBookings,
    OrderMails,
    OrderFollowUps,
    TrancheOrders,
    OrderEtims,
    OrderGateSales,
  ],
  exports: [
    // The till's gate sales (issue 46).
    OrderGateSales,
    OrdersService,
    CreditLimitUseRepository,
    OrderSales,
    OrderCredits,
    OrderBookings,
    OrderMails,
    OrderMoney,
    OrderFromQuotationService,
    OrderLpoScans,
    OrdersPersonalData,
    TrancheOrders,
    // The invoices module signs the invoices on account with the order's eTIMS lines.
    OrderEtims,
  ],
})
export class OrdersModule {}
