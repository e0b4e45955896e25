import { Module } from '@nestjs/common';
import { BatchesModule } from '../batches/batches.module';
import { OrdersModule } from '../orders/orders.module';
import { BookingLifeService } from './booking-life.service';
import { BookingMove } from './booking-move';
import { BookingsController } from './bookings.controller';
import { BookingsService } from './bookings.service';

/** The life of a booking after it is placed: deposit, ready, balance, release, affected. */
@Module({
  imports: [OrdersModule, BatchesModule],
  controllers: [BookingsController],
  providers: [BookingLifeService, BookingsService, BookingMove],
  exports: [BookingLifeService],
})
export class BookingsModule {}
