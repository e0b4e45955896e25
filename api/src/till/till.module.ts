import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule } from '../auth/auth.module';
import { holdsNoPersonalData } from '../common/personal-data';
import { EtimsModule } from '../etims/etims.module';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsModule } from '../payments/payments.module';
import { UsersModule } from '../users/users.module';
import { TillPin, TillPinSchema } from './schemas/till-pin.schema';
import { TillSession, TillSessionSchema } from './schemas/till-session.schema';
import { TillCashUpDocuments } from './till-cash-up-documents';
import { TillHandOver } from './till-hand-over';
import { TillController } from './till.controller';
import { TillPins } from './till-pins.service';
import { TillRepository } from './till.repository';
import { TillSales } from './till-sales.service';
import { TillSessions } from './till-sessions.service';

/** The gate's till (issue 46): sessions, PINs, gate sales through the orders, the cash-up. */
@Module({
  imports: [
    AuthModule,
    EtimsModule,
    OrdersModule,
    PaymentsModule,
    UsersModule,
    MongooseModule.forFeature([
      { name: TillSession.name, schema: TillSessionSchema },
      { name: TillPin.name, schema: TillPinSchema },
    ]),
  ],
  controllers: [TillController],
  providers: [
    // Staff members' names and their PINs' hashes: the shop's own people, no customer.
    holdsNoPersonalData('till_sessions', 'till_pins'),
    TillRepository,
    TillPins,
    TillSessions,
    TillSales,
    TillCashUpDocuments,
    TillHandOver,
  ],
})
export class TillModule {}
