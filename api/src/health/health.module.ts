import { Module } from '@nestjs/common';
import { DatabaseWatchdog } from './database-watchdog';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({ controllers: [HealthController], providers: [HealthService, DatabaseWatchdog] })
export class HealthModule {}
