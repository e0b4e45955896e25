import { ReadyStockHold } from './ready-stock-hold';
import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { UsersModule } from '../users/users.module';
import { InventoryService } from './inventory.service';
import { LowStockDigest } from './low-stock.digest';
import { StockLedgerModule } from './stock-ledger.module';
import { StockController } from './stock.controller';
import { StockService } from './stock.service';

/**
 * Stock, order reservations and the stock ledger: the stock routes and the low-stock digest for
 * staff; other modules (orders) use {@link InventoryService}.
 */
@Module({
  imports: [CatalogModule, StockLedgerModule, UsersModule],
  controllers: [StockController],
  providers: [InventoryService, StockService, LowStockDigest, ReadyStockHold],
  exports: [InventoryService, ReadyStockHold],
})
export class InventoryModule {}
