import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OrdersModule } from '../orders/orders.module';
import { MoneyModule } from '../money/money.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { UsersModule } from '../users/users.module';
import { DarajaClient } from './daraja.client';
import { MpesaPushesRepository } from './mpesa-pushes.repository';
import { MpesaSettlementService } from './mpesa-settlement.service';
import { MpesaService } from './mpesa.service';
import { PaymentsController } from './payments.controller';
import { PaymentsPersonalData } from './payments-personal-data';
import { PromptLimits } from './prompt-limits';
import { MpesaPush, MpesaPushSchema } from './schemas/mpesa-push.schema';
import { OrderRefund, OrderRefundSchema } from '../orders/schemas/order-refund.schema';
import { C2bController } from './c2b/c2b.controller';
import { C2bLoop } from './c2b/c2b-loop';
import { C2bPayment, C2bPaymentSchema, MpesaRefund, MpesaRefundSchema } from './c2b/c2b.schemas';
import { C2bInboxService } from './c2b/c2b-inbox.service';
import { C2bService } from './c2b/c2b.service';
import { MpesaRefundsService } from './c2b/mpesa-refunds.service';

/**
 * Payments: M-Pesa Express (Daraja STK push) and its reconciliation; paybill (C2B) payments, the
 * payments inbox, and M-Pesa refunds (c2b/).
 */
@Module({
  imports: [
    OrdersModule,
    UsersModule,
    MoneyModule,
    InvoicesModule,
    MongooseModule.forFeature([
      { name: MpesaPush.name, schema: MpesaPushSchema },
      { name: C2bPayment.name, schema: C2bPaymentSchema },
      { name: MpesaRefund.name, schema: MpesaRefundSchema },
      { name: OrderRefund.name, schema: OrderRefundSchema },
    ]),
  ],
  controllers: [PaymentsController, C2bController],
  providers: [
    MpesaService,
    MpesaSettlementService,
    MpesaPushesRepository,
    DarajaClient,
    PromptLimits,
    C2bService,
    C2bInboxService,
    MpesaRefundsService,
    C2bLoop,
    PaymentsPersonalData,
  ],
  // The gate's till prompts a buyer's phone for a sale (issue 46).
  exports: [MpesaService, C2bInboxService],
})
export class PaymentsModule {}
