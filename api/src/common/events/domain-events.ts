import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';
import type { Actor } from '../principal';

/** What an event asks the audit trail to keep: one entry, about its target. */
export interface AuditNote {
  action: string;
  text: string;
  target?: { type: string; id: string; label?: string };
}

/**
 * Every domain event names who caused it and, when the trail keeps it, its audit entry. A
 * module's events extend this with what its listeners need (the order as written, the e-mail and
 * the SMS that follow).
 */
export interface DomainEvent {
  actor: Actor;
  audit?: AuditNote;
}

/**
 * The typed map of every domain event, by name (`<module>.<what happened>`: `order.paid`,
 * `booking.depositPaid`, `batch.failed`). Empty here: each module adds its own events to it by
 * declaration merging (`declare module '../common/events/domain-events'`), next to the step that
 * announces them, so that the module floors keep pointing down.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface DomainEventMap {}

export type DomainEventName = Extract<keyof DomainEventMap, string>;

/**
 * "This happened", announced once by the step that did it (the order runner, a booking's or a
 * batch's step). What follows a step subscribes to it: the audit trail, the e-mail queue, the SMS
 * sender. A step knows none of them. `emit` answers once every listener has run (the audit entry
 * written, the e-mail queued); a listener that sends over the network (SMS) does not hold it up.
 */
@Injectable()
export class DomainEvents {
  constructor(private readonly emitter: EventEmitter2) {}

  private readonly logger = new Logger('DomainEvents');

  async emit<K extends DomainEventName>(name: K, event: DomainEventMap[K]): Promise<void> {
    await this.emitter.emitAsync(name, event);
  }

  /**
   * Announces it without waiting for its listeners (what follows a placement must not hold its
   * answer up); a listener's failure is logged, never left to end the process.
   */
  emitInBackground<K extends DomainEventName>(name: K, event: DomainEventMap[K]): void {
    this.emit(name, event).catch((error: Error) =>
      this.logger.error(`A listener of ${name} failed: ${error.message}`),
    );
  }
}

/** Subscribes a provider's method to one event (`order.paid`), a module's (`order.*`) or all (`**`). */
export const OnDomainEvent = (name: DomainEventName | `${string}.*` | '**') =>
  OnEvent(name, { suppressErrors: false });
