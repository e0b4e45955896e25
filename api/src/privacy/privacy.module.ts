import { Module } from '@nestjs/common';
import { ACCOUNT_ERASURE } from '../common/personal-data';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganisationsModule } from '../organisations/organisations.module';
import { UsersModule } from '../users/users.module';
import { ConsentsRepository } from './consents.repository';
import { ConsentsService } from './consents.service';
import { DataExportBuilder } from './data-export';
import { DataRequestsRepository } from './data-requests.repository';
import { DataRequestsService } from './data-requests.service';
import { Erasure } from './erasure';
import { MyDataController } from './my-data.controller';
import { MyDataService } from './my-data.service';
import { PersonalDataOwners } from './personal-data-owners';
import { PrivacyController } from './privacy.controller';
import { PrivacyPersonalData } from './privacy-personal-data';
import { PrivacySettingsService } from './privacy-settings.service';
import { RetentionSweep } from './retention-sweep';
import { SmsInboundController } from './sms-inbound.controller';

/**
 * Issue 31: the privacy notice, the person's data (download, deletion), consent, guests' requests.
 * Issue 39: it coordinates the owners of personal data (`PersonalDataOwners`) and touches none of
 * their collections; an admin deleting a customer goes through the same `Erasure`.
 */
@Module({
  imports: [UsersModule, AuthModule, OrdersModule, OrganisationsModule, DiscoveryModule],
  controllers: [PrivacyController, MyDataController, SmsInboundController],
  providers: [
    PersonalDataOwners,
    Erasure,
    { provide: ACCOUNT_ERASURE, useExisting: Erasure },
    PrivacySettingsService,
    ConsentsService,
    ConsentsRepository,
    DataExportBuilder,
    MyDataService,
    DataRequestsService,
    DataRequestsRepository,
    RetentionSweep,
    PrivacyPersonalData,
  ],
  exports: [ConsentsService, Erasure],
})
export class PrivacyModule {}
