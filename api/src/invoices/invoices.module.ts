import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { holdsNoPersonalData } from '../common/personal-data';
import { EtimsModule } from '../etims/etims.module';
import { MoneyModule } from '../money/money.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { InvoiceReminders } from './invoice-reminders';
import { InvoiceStatements } from './invoice-statements';
import { InvoiceSettlements } from './invoice-settlements';
import { InvoiceSettlementsController } from './invoice-settlements.controller';
import { InvoiceSettlementsRepository } from './invoice-settlements.repository';
import { TranchesModule } from '../tranches/tranches.module';
import { InvoiceEtims } from './invoice-etims';
import { InvoiceIssuing } from './invoice-issuing';
import { InvoicePdf } from './invoice-pdf';
import { InvoiceViews } from './invoice-views';
import { InvoicesController, OrderInvoicesController } from './invoices.controller';
import { InvoicesPersonalData } from './invoices-personal-data';
import { InvoicesRepository } from './invoices.repository';
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
    EtimsModule,
    OrdersModule,
    OrganisationsModule,
    MoneyModule,
    TranchesModule,
    MongooseModule.forFeature([
      { name: Invoice.name, schema: InvoiceSchema },
      { name: InvoiceCounter.name, schema: InvoiceCounterSchema },
    ]),
  ],
  controllers: [
    InvoicesController,
    OrderInvoicesController,
    // money: (settlement routes)
    InvoiceSettlementsController,
    // statements: StatementsController
    StatementsController,
  ],
  providers: [
    InvoicesRepository,
    InvoiceIssuing,
    InvoiceEtims,
    InvoiceViews,
    InvoicePdf,
    InvoicesPersonalData,
    holdsNoPersonalData('invoice_counters'),
    // money: InvoiceSettlements, ...
    InvoiceSettlementsRepository,
    InvoiceSettlements,
    // statements: InvoiceStatements, InvoiceReminders
    InvoiceStatements,
    InvoiceReminders,
  ],
  // The invoices' reads (`InvoicesRepository`) and who may read one (`InvoiceViews.readable`).
  exports: [
    MongooseModule,
    InvoicesRepository,
    InvoiceViews,
    InvoiceStatements,
    InvoiceSettlements,
  ],
})
export class InvoicesModule {}
