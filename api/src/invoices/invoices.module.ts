import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MoneyModule } from '../money/money.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { InvoiceReminders } from './invoice-reminders';
import { InvoiceStatements } from './invoice-statements';
import { InvoiceSettlements } from './invoice-settlements';
import { InvoiceSettlementsController } from './invoice-settlements.controller';
import { InvoiceSettlementsRepository } from './invoice-settlements.repository';
import {
  Invoice,
  InvoiceCounter,
  InvoiceCounterSchema,
  InvoiceSchema,
} from './schemas/invoice.schema';
import { StatementsController } from './statements.controller';

/**
 * Invoices on account (issue 44, docs/invoices.md): issued per tranche delivered or per order,
 * settled by paybill, bank transfers, tax withheld and credit notes through the money ledger;
 * statements with their ageing, and reminders on the due date and a week after.
 */
@Module({
  imports: [
    OrdersModule,
    OrganisationsModule,
    MoneyModule,
    MongooseModule.forFeature([
      { name: Invoice.name, schema: InvoiceSchema },
      { name: InvoiceCounter.name, schema: InvoiceCounterSchema },
    ]),
  ],
  controllers: [
    // issue: InvoicesController, OrderInvoicesController
    // money: (settlement routes)
    InvoiceSettlementsController,
    // statements: StatementsController
    StatementsController,
  ],
  providers: [
    // issue: InvoicesRepository, InvoiceIssuing, InvoiceViews, InvoicePdf
    // money: InvoiceSettlements, ...
    InvoiceSettlementsRepository,
    InvoiceSettlements,
    // statements: InvoiceStatements, InvoiceReminders
    InvoiceStatements,
    InvoiceReminders,
  ],
  exports: [MongooseModule, InvoiceStatements, InvoiceSettlements],
})
export class InvoicesModule {}
