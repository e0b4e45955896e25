import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { SeedModule } from './seed/seed.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, extraImports: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        MongooseModule.forRoot(config.mongodbUri, {
          // Fail fast when the database is away instead of queueing requests for the driver's 30 s.
          serverSelectionTimeoutMS: 5000,
          connectTimeoutMS: 10_000,
          socketTimeoutMS: 45_000,
          heartbeatFrequencyMS: 5000,
          maxPoolSize: 20,
          retryAttempts: 3,
          retryDelay: 2000,
        }),
        HealthModule,
        SeedModule.register([]),
        ...extraImports,
      ],
    };
  }
}
