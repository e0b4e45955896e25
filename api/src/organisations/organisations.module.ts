import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { UsersModule } from '../users/users.module';
import { OrganisationInvitationCodes } from './organisation-invitation-codes';
import { OrganisationInvitationMail } from './organisation-invitation-mail';
import { OrganisationInvitationsController } from './organisation-invitations.controller';
import { OrganisationInvitationsRepository } from './organisation-invitations.repository';
import { OrganisationPeopleService } from './organisation-people.service';
import { OrganisationViews } from './organisation-views';
import { OrganisationsController } from './organisations.controller';
import { OrganisationsPersonalData } from './organisations-personal-data';
import { OrganisationsRepository } from './organisations.repository';
import { OrganisationsService } from './organisations.service';
import {
  OrganisationInvitation,
  OrganisationInvitationSchema,
} from './schemas/organisation-invitation.schema';
import { Organisation, OrganisationSchema } from './schemas/organisation.schema';

/**
 * Business accounts (issue 42): organisations, their people and their terms. Orders and quotations
 * ask {@link OrganisationsService} (`approvedMembership`, `priceListOf`).
 */
@Module({
  imports: [
    UsersModule,
    CatalogModule,
    MongooseModule.forFeature([
      { name: Organisation.name, schema: OrganisationSchema },
      { name: OrganisationInvitation.name, schema: OrganisationInvitationSchema },
    ]),
  ],
  controllers: [OrganisationsController, OrganisationInvitationsController],
  providers: [
    OrganisationsRepository,
    OrganisationInvitationsRepository,
    OrganisationViews,
    OrganisationsService,
    OrganisationPeopleService,
    OrganisationInvitationMail,
    OrganisationInvitationCodes,
    OrganisationsPersonalData,
  ],
  exports: [OrganisationsService],
})
export class OrganisationsModule {}
