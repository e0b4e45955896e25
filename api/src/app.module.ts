import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { CatalogModule } from './catalog/catalog.module';
import { DeliveryModule } from './delivery/delivery.module';
import { EtimsModule } from './etims/etims.module';
import { EtimsOfficeModule } from './etims/etims-office.module';
import { InventoryModule } from './inventory/inventory.module';
import { HealthModule } from './health/health.module';
import { RateLimitModule } from './common/rate-limit';
import { ClaimsModule } from './common/claims';
import { EventsModule } from './common/events/events.module';
import { SchedulerModule } from './common/scheduler/scheduler.module';
import { QuotaModule } from './common/quota';
import { MailModule } from './mail/mail.module';
import { LocationsModule } from './locations/locations.module';
import { OrdersModule } from './orders/orders.module';
import { OrganisationsModule } from './organisations/organisations.module';
import { QuotationsModule } from './quotations/quotations.module';
import { TranchesModule } from './tranches/tranches.module';
import { InvoicesModule } from './invoices/invoices.module';
import { BookingsModule } from './bookings/bookings.module';
import { BatchDeskModule } from './batches/batch-desk.module';
import { PaymentsModule } from './payments/payments.module';
import { PrivacyModule } from './privacy/privacy.module';
import { ReportsModule } from './reports/reports.module';
import { SiteModule } from './site/site.module';
import { SmsModule } from './sms/sms.module';
import { ContactModule } from './contact/contact.module';
import { StaffModule } from './staff/staff.module';
import { ScansModule } from './scans/scans.module';
import { StorageModule } from './storage/storage.module';
import { UsersModule } from './users/users.module';
import { TillModule } from './till/till.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, extraImports: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        MongooseModule.forRoot(config.mongodbUri, {
          // Fail fast when the database is away: no mongoose queue (it held each query for 10 s once the
          // driver saw the server go), and the driver gives up choosing a server after 2.5 s, so a
          // request answers 503 in seconds (tools/drills/db-loss.ts measures it).
          bufferCommands: false,
          serverSelectionTimeoutMS: 2500,
          connectTimeoutMS: 10_000,
          socketTimeoutMS: 45_000,
          heartbeatFrequencyMS: 5000,
          maxPoolSize: 20,
          // The first connection still waits about as long as before for a database that starts late.
          retryAttempts: 5,
          retryDelay: 2000,
        }),
        RateLimitModule,
        ClaimsModule,
        SchedulerModule,
        EventsModule,
        QuotaModule,
        AuditModule,
        MailModule,
        SmsModule,
        StorageModule,
        ScansModule,
        HealthModule,
        UsersModule,
        StaffModule,
        AuthModule,
        OrdersModule,
        BookingsModule,
        BatchDeskModule,
        PaymentsModule,
        ReportsModule,
        LocationsModule,
        CatalogModule,
        InventoryModule,
        SiteModule,
        ContactModule,
        DeliveryModule,
        PrivacyModule,
        OrganisationsModule,
        QuotationsModule,
        TranchesModule,
        InvoicesModule,
        EtimsModule,
        EtimsOfficeModule,
        TillModule,
        ...extraImports,
      ],
    };
  }
}
