import { Global, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DomainEvents } from './domain-events';

/** The domain events' bus, for every module to announce on and subscribe to. */
@Global()
@Module({
  imports: [EventEmitterModule.forRoot({ wildcard: true, delimiter: '.', ignoreErrors: false })],
  providers: [DomainEvents],
  exports: [DomainEvents],
})
export class EventsModule {}
