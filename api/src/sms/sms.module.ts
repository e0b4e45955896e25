import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { UsersModule } from '../users/users.module';
import { SmsBudgets } from './sms-budgets';
import { SmsOutboxRepository } from './sms-outbox.repository';
import { SmsPersonalData } from './sms-personal-data';
import { SMS_GATEWAY, SmsService, smsGatewayFor } from './sms.service';

@Global()
@Module({
  imports: [UsersModule],
  providers: [
    SmsService,
    SmsOutboxRepository,
    SmsBudgets,
    SmsPersonalData,
    { provide: SMS_GATEWAY, inject: [APP_CONFIG], useFactory: (c: AppConfig) => smsGatewayFor(c) },
  ],
  // The budgets are also claimed by one-off messages sent straight to the gateway (a guest's code).
  exports: [SmsService, SmsOutboxRepository, SmsBudgets, SMS_GATEWAY],
})
export class SmsModule {}
