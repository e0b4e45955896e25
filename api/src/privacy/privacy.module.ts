import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from '../users/users.module';
import { Anonymiser } from './anonymiser';
import { ConsentsService } from './consents.service';
import { DataExportBuilder } from './data-export';
import { DataRequestsService } from './data-requests.service';
import { MyDataController } from './my-data.controller';
import { MyDataService } from './my-data.service';
import { PrivacyController } from './privacy.controller';
import { PrivacySettingsService } from './privacy-settings.service';
import { RetentionSweep } from './retention-sweep';
import { SmsInboundController } from './sms-inbound.controller';

/** Issue 31: the privacy notice, the person's data (download, deletion), consent, guests' requests. */
@Module({
  imports: [UsersModule, AuthModule],
  controllers: [PrivacyController, MyDataController, SmsInboundController],
  providers: [
    PrivacySettingsService,
    ConsentsService,
    DataExportBuilder,
    Anonymiser,
    MyDataService,
    DataRequestsService,
    RetentionSweep,
  ],
  exports: [ConsentsService],
})
export class PrivacyModule {}
