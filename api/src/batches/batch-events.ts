import type { DomainEvent } from '../common/events/domain-events';
import type { BatchRecord } from './batch-record';

/** A batch's own step happened (staff's, or the sweep telling one a crash cut off): the batch after it. */
export interface BatchEvent extends DomainEvent {
  batch: BatchRecord;
}

/** The batch fell short of its bookings: what it can still give them, in all. */
export interface BatchShortEvent extends BatchEvent {
  seedlingsLeft: number;
}

declare module '../common/events/domain-events' {
  interface DomainEventMap {
    'batch.created': BatchEvent;
    'batch.updated': BatchEvent;
    'batch.lost': BatchEvent;
    /** Its bookings are told: their balances fall due (the bookings module listens). */
    'batch.ready': BatchEvent;
    /** Its bookings are told: each it still held is affected. */
    'batch.failed': BatchEvent;
    /** Its bookings are told: the latest that no longer fit are affected. */
    'batch.short': BatchShortEvent;
  }
}
