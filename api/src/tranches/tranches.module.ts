import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BatchesModule } from '../batches/batches.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { ScansModule } from '../scans/scans.module';
import { OrderTranches, OrderTranchesSchema } from './schemas/order-tranches.schema';
import { TrancheDocuments } from './tranche-documents';
import { TrancheFollowUps } from './tranche-follow-ups';
import { TrancheReminders } from './tranche-reminders';
import { TrancheSignedNotes } from './tranche-signed-notes';
import { TrancheSteps } from './tranche-steps.service';
import { OrderTranchesController, TranchesDeskController } from './tranches.controller';
import { TranchesPersonalData } from './tranches-personal-data';
import { TranchesRepository } from './tranches.repository';
import { TranchesService } from './tranches.service';

/**
 * Orders from quotations delivered in tranches to planting sites (issue 43): planned, sent out
 * from the dispatch desk, signed for (the signed note's photo kept by the scans module); the eve's
 * and the departure's texts to each site's contact.
 */
@Module({
  imports: [
    OrdersModule,
    BatchesModule,
    OrganisationsModule,
    ScansModule,
    MongooseModule.forFeature([{ name: OrderTranches.name, schema: OrderTranchesSchema }]),
  ],
  controllers: [OrderTranchesController, TranchesDeskController],
  providers: [
    TranchesRepository,
    TranchesService,
    TrancheSteps,
    TrancheDocuments,
    TrancheSignedNotes,
    TrancheReminders,
    TrancheFollowUps,
    TranchesPersonalData,
  ],
  // The invoices read an order's tranches (what each delivered).
  exports: [TranchesRepository],
})
export class TranchesModule {}
