import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OrdersModule } from '../orders/orders.module';
import { UsersModule } from '../users/users.module';
import { DarajaClient } from './daraja.client';
import { MpesaPushesRepository } from './mpesa-pushes.repository';
import { MpesaSettlementService } from './mpesa-settlement.service';
import { MpesaService } from './mpesa.service';
import { PaymentsController } from './payments.controller';
import { PromptLimits } from './prompt-limits';
import { MpesaPush, MpesaPushSchema } from './schemas/mpesa-push.schema';

/** Payments at checkout: M-Pesa Express (Daraja STK push) and its reconciliation. */
@Module({
  imports: [
    OrdersModule,
    UsersModule,
    MongooseModule.forFeature([{ name: MpesaPush.name, schema: MpesaPushSchema }]),
  ],
  controllers: [PaymentsController],
  providers: [
    MpesaService,
    MpesaSettlementService,
    MpesaPushesRepository,
    DarajaClient,
    PromptLimits,
  ],
})
export class PaymentsModule {}
