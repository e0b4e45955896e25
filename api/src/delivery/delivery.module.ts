import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { DeliveryController } from './delivery.controller';
import { DeliveryZonesRepository } from './delivery-zones.repository';
import { DeliveryService } from './delivery.service';
import { DeliveryZone, DeliveryZoneSchema } from './schemas/delivery-zone.schema';
import { holdsNoPersonalData } from '../common/personal-data';

/** Delivery zones with their fees and days, collection at the nursery, and an order's fee. */
@Module({
  imports: [MongooseModule.forFeature([{ name: DeliveryZone.name, schema: DeliveryZoneSchema }])],
  controllers: [DeliveryController],
  providers: [DeliveryZonesRepository, DeliveryService, holdsNoPersonalData('delivery_zones')],
  exports: [DeliveryService],
})
export class DeliveryModule {}
