import { Global, Module } from '@nestjs/common';
import { BookingsSeeder } from './bookings.seeder';
import { CatalogSeeder } from './catalog.seeder';
import { OrdersSeeder } from './orders.seeder';
import { PaymentsSeeder } from './payments.seeder';
import { SEEDERS, type Seeder } from './seed.types';

/**
 * Every seeder, in the order they run: the catalogue first, then orders that buy from it, batches
 * and bookings against them, and the M-Pesa payments (some of them for those bookings).
 */
export const DEMO_SEEDERS = [CatalogSeeder, OrdersSeeder, BookingsSeeder, PaymentsSeeder];

/**
 * The demo data: mounted only by the seed script (and the tests of the seeders), never by the
 * running API, which has no demo code.
 */
@Global()
@Module({})
export class SeedModule {
  static register(seeders: (new (...args: never[]) => Seeder)[] = DEMO_SEEDERS) {
    return {
      module: SeedModule,
      providers: [
        ...seeders,
        { provide: SEEDERS, useFactory: (...instances: Seeder[]) => instances, inject: seeders },
      ],
      exports: [SEEDERS],
    };
  }
}
