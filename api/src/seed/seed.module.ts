import { Global, Module } from '@nestjs/common';
import { SEEDERS, type Seeder } from './seed.types';

/**
 * Collects the seeders of the domain modules. A module adds its own by providing a class and
 * listing it in {@link SeedModule.register}'s array (kept in one place so the order is explicit).
 */
@Global()
@Module({})
export class SeedModule {
  static register(seeders: (new (...args: never[]) => Seeder)[] = []) {
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
