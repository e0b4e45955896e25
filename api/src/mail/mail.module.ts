import { Global, Module } from '@nestjs/common';
import { MailPersonalData } from './mail-personal-data';
import { MailLogRepository } from './mail-log.repository';
import { MailOutboxRepository } from './mail-outbox.repository';
import { MailQueue } from './mail-queue.service';
import { MailService } from './mail.service';

@Global()
@Module({
  providers: [MailService, MailQueue, MailOutboxRepository, MailLogRepository, MailPersonalData],
  exports: [MailService, MailQueue, MailLogRepository, MailOutboxRepository],
})
export class MailModule {}
