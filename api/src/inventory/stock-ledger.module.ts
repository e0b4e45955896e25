import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Product, ProductSchema } from '../catalog/schemas/product.schema';
import { ReservationsRepository } from './reservations.repository';
import { StockMovement, StockMovementSchema } from './schemas/stock-movement.schema';
import { StockLedgerReconciler } from './stock-ledger.reconciler';
import { StockLedgerRepository } from './stock-ledger.repository';
import { StockLevelsRepository } from './stock-levels.repository';
import { StockPersonalData } from './stock-personal-data';

/**
 * The inventory's storage: the stock ledger, order reservations, stock levels and the ledger's
 * reconciler. A module of its own beneath both the catalog (a product's stock set in its form is a
 * movement too) and the inventory's services (see {@link InventoryModule}).
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Product.name, schema: ProductSchema },
      { name: StockMovement.name, schema: StockMovementSchema },
    ]),
  ],
  providers: [
    StockLedgerRepository,
    ReservationsRepository,
    StockLevelsRepository,
    StockLedgerReconciler,
    StockPersonalData,
  ],
  exports: [StockLedgerRepository, ReservationsRepository, StockLevelsRepository],
})
export class StockLedgerModule {}
