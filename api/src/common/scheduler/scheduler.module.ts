import { Global, Module } from '@nestjs/common';
import { holdsNoPersonalData } from '../personal-data';
import { Scheduler } from './scheduler';
import { SCHEDULER_LEASES_COLLECTION, SweepLeases } from './sweep-leases.store';

/** The one scheduler of the API's background sweeps, for every module to declare its own in. */
@Global()
@Module({
  providers: [Scheduler, SweepLeases, holdsNoPersonalData(SCHEDULER_LEASES_COLLECTION)],
  exports: [Scheduler],
})
export class SchedulerModule {}
