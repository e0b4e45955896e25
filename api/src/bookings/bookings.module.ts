import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module';
import { BookingLifeService } from './booking-life.service';

/** The life of a booking after it is placed: deposit, ready, balance, release, affected. */
@Module({
  imports: [OrdersModule],
  providers: [BookingLifeService],
  exports: [BookingLifeService],
})
export class BookingsModule {}
