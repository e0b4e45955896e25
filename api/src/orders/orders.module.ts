import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { UsersModule } from '../users/users.module';
import { OrderPlacementService } from './order-placement.service';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';
import {
  Order,
  OrderIdempotency,
  OrderIdempotencySchema,
  OrderSchema,
} from './schemas/order.schema';

@Module({
  imports: [
    CatalogModule,
    UsersModule,
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: OrderIdempotency.name, schema: OrderIdempotencySchema },
    ]),
  ],
  controllers: [OrdersController],
  providers: [OrdersService, OrdersRepository, OrderPlacementService],
  exports: [OrdersService],
})
export class OrdersModule {}
