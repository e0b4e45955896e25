import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MoneyLedgerRepository } from './money-ledger.repository';
import { MoneyLedgerService } from './money-ledger.service';
import { MoneyPayersRepository } from './money-payers.repository';
import { MoneyPersonalData } from './money-personal-data';
import { MoneyEntry, MoneyEntrySchema } from './schemas/money-entry.schema';

/**
 * The money ledger: every shilling in or out is one entry. Beneath orders and payments, which
 * credit its entries to orders and pay them back.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: MoneyEntry.name, schema: MoneyEntrySchema }])],
  providers: [MoneyLedgerRepository, MoneyPayersRepository, MoneyLedgerService, MoneyPersonalData],
  exports: [MoneyLedgerService],
})
export class MoneyModule {}
