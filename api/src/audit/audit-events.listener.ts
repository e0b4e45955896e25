import { Injectable } from '@nestjs/common';
import { OnDomainEvent, type DomainEvent } from '../common/events/domain-events';
import { AuditService } from './audit.service';

/** The audit trail subscribes to every domain event: one entry for each that asks for one. */
@Injectable()
export class AuditEventsListener {
  constructor(private readonly audit: AuditService) {}

  @OnDomainEvent('**')
  async record(event: DomainEvent): Promise<void> {
    if (!event.audit) return;
    const { action, text, target } = event.audit;
    await this.audit.record(event.actor, action, text, target);
  }
}
