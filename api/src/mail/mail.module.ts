import { Global, Module } from '@nestjs/common';
import { MailPersonalData } from './mail-personal-data';
import { MailLogRepository } from './mail-log.repository';
import { MailService } from './mail.service';

@Global()
@Module({
  providers: [MailService, MailLogRepository, MailPersonalData],
  exports: [MailService, MailLogRepository],
})
export class MailModule {}
