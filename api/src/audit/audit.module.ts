import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditController } from './audit.controller';
import { AuditEventsListener } from './audit-events.listener';
import { AuditPersonalData } from './audit-personal-data';
import { AuditDirectoryRepository } from './audit-directory.repository';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import {
  AuditAction,
  AuditActionSchema,
  AuditPerson,
  AuditPersonSchema,
} from './schemas/audit-directory.schema';
import { AuditLog, AuditLogSchema } from './schemas/audit-log.schema';

/** Global so that every domain can record its changes without importing it. */
@Global()
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: AuditLog.name, schema: AuditLogSchema },
      { name: AuditAction.name, schema: AuditActionSchema },
      { name: AuditPerson.name, schema: AuditPersonSchema },
    ]),
  ],
  controllers: [AuditController],
  providers: [
    AuditService,
    AuditRepository,
    AuditDirectoryRepository,
    AuditPersonalData,
    AuditEventsListener,
  ],
  exports: [AuditService],
})
export class AuditModule {}
