import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BatchesModule } from '../batches/batches.module';
import { CatalogModule } from '../catalog/catalog.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { UsersModule } from '../users/users.module';
import { QuotationAcceptanceService } from './quotation-acceptance.service';
import { QuotationAccess } from './quotation-access';
import { QuotationClaims } from './quotation-claims';
import { QuotationDocuments } from './quotation-documents';
import { QuotationLines } from './quotation-lines';
import { QuotationMail } from './quotation-mail';
import { QuotationStepsService } from './quotation-steps.service';
import { QuotationsController } from './quotations.controller';
import { QuotationsPersonalData } from './quotations-personal-data';
import { QuotationsRepository } from './quotations.repository';
import { QuotationsService } from './quotations.service';
import {
  Quotation,
  QuotationCounter,
  QuotationCounterSchema,
  QuotationSchema,
} from './schemas/quotation.schema';

/**
 * Quotations (issue 42): an approved organisation's requests, the shop's versions, the thread,
 * and the acceptance that makes an order through the orders' port (OrderFromQuotationService).
 */
@Module({
  imports: [
    UsersModule,
    CatalogModule,
    BatchesModule,
    OrganisationsModule,
    OrdersModule,
    MongooseModule.forFeature([
      { name: Quotation.name, schema: QuotationSchema },
      { name: QuotationCounter.name, schema: QuotationCounterSchema },
    ]),
  ],
  controllers: [QuotationsController],
  providers: [
    QuotationsRepository,
    QuotationClaims,
    QuotationAccess,
    QuotationLines,
    QuotationMail,
    QuotationsService,
    QuotationStepsService,
    QuotationAcceptanceService,
    QuotationDocuments,
    QuotationsPersonalData,
  ],
})
export class QuotationsModule {}
