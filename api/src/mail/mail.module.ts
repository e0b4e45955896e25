import { Global, Module } from '@nestjs/common';
import { MailLogRepository } from './mail-log.repository';
import { MailService } from './mail.service';

@Global()
@Module({ providers: [MailService, MailLogRepository], exports: [MailService, MailLogRepository] })
export class MailModule {}
