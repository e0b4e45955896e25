import type { TrancheSmsEvent } from '@spc/shared-contracts';
import type { DomainEvent } from '../common/events/domain-events';
import type { TrancheRecord } from './tranche-record';

/**
 * A step of a tranche happened: the tranche as written, its order, and the text its site's
 * contact gets (the audit trail and the SMS sender subscribe; no step calls them).
 */
export interface TrancheEvent extends DomainEvent {
  orderId: string;
  purchaseNumber: string;
  /** The account the order is for (its people's data finds the texts by it). */
  accountId: string | null;
  tranche: TrancheRecord;
  /** The seedlings of the load (planned, or sent once dispatched). */
  seedlings: number;
  /** The text its site's contact gets, if the step sends one. */
  sms?: TrancheSmsEvent;
}

declare module '../common/events/domain-events' {
  interface DomainEventMap {
    'tranche.planned': TrancheEvent;
    'tranche.changed': TrancheEvent;
    'tranche.cancelled': TrancheEvent;
    'tranche.dispatched': TrancheEvent;
    'tranche.delivered': TrancheEvent;
  }
}
