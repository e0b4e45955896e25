import { ConflictException, Injectable } from '@nestjs/common';
import type { HeldPart, LineHold } from '../common/order-hold';
import type { Actor } from '../common/principal';
import { OrderHolds } from './order-holds';
import {
  ALL_TRANCHES_DELIVERED,
  FIRST_TRANCHE_OUT,
  type TrancheStepInput,
} from './order-tranche-steps';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** The statuses an order takes a new tranche in (or one more, once it is in transit by them). */
const PLANNABLE = ['Pending', 'Processing'];

/**
 * What the tranches module asks of orders (issue 43): read one, mark it delivered in tranches,
 * move its status with its tranches (in transit at the first, delivered at the last, each an
 * order step with its audit entry and the buyer's text), and hand part of its held seedlings
 * over or take them back. Provided by the orders module (a tranche is part of an order).
 */
@Injectable()
export class TrancheOrders {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly service: OrdersService,
    private readonly holds: OrderHolds,
  ) {}

  /** A placed order, or null. */
  find(id: string): Promise<OrderRecord | null> {
    return this.orders.findById(id);
  }

  /**
   * The order made from a quotation is delivered in tranches from now on (set once, never
   * unset), while it may still take a tranche: pending or processing, or in transit by its
   * tranches. Null when it may not (sent out whole meanwhile, delivered, cancelled).
   */
  markInTranches(id: string): Promise<OrderRecord | null> {
    return this.orders.transition(
      id,
      {
        quotationId: { $exists: true },
        $or: [{ orderStatus: { $in: PLANNABLE } }, { inTranches: true, orderStatus: 'InTransit' }],
      },
      { $set: { inTranches: true } },
    );
  }

  /** May the order take a tranche (planned, changed or sent) in its status now? */
  takesTranches(order: OrderRecord): boolean {
    return (
      PLANNABLE.includes(order.orderStatus) ||
      (order.inTranches && order.orderStatus === 'InTransit')
    );
  }

  /**
   * Its tranche `number` left: a pending or processing order is in transit now (the order step,
   * audited, its buyer texted); one in transit already stays so. Refused (409, the state table's
   * reason) when the order may not go out (cancelled meanwhile).
   */
  async sentOut(actor: Actor, order: OrderRecord, number: number): Promise<OrderRecord> {
    if (order.orderStatus === 'InTransit' && order.inTranches) return order;
    return this.orMovedOn(
      this.service.apply<TrancheStepInput>(FIRST_TRANCHE_OUT, actor, order, { number }),
      order._id,
      (o) => o.orderStatus === 'InTransit' && o.inTranches,
    );
  }

  /** Every unit is delivered (its last tranche's note recorded): the order is delivered. */
  async allDelivered(actor: Actor, order: OrderRecord, number: number): Promise<OrderRecord> {
    if (order.orderStatus !== 'InTransit') return order;
    return this.orMovedOn(
      this.service.apply<TrancheStepInput>(ALL_TRANCHES_DELIVERED, actor, order, { number }),
      order._id,
      (o) => ['Delivered', 'Completed'].includes(o.orderStatus),
    );
  }

  /** Part of what one hold keeps for the order handed over, once per key (see OrderHolds). */
  handOverPart(order: OrderRecord, hold: LineHold, part: HeldPart, by: Actor | null) {
    return this.holds.handOverPart(order, hold, part, by);
  }

  /** Seedlings that came back undelivered, held for the order again, once per key. */
  bringBackPart(order: OrderRecord, hold: LineHold, part: HeldPart, by: Actor | null) {
    return this.holds.bringBackPart(order, hold, part, by);
  }

  /**
   * A step another tranche's step may have taken first (two loads sent at once): the order as it
   * is now when it already is where the step would take it, else the step's refusal.
   */
  private async orMovedOn(
    step: Promise<OrderRecord>,
    id: string,
    there: (order: OrderRecord) => boolean,
  ): Promise<OrderRecord> {
    try {
      return await step;
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      const now = await this.orders.findById(id);
      if (now && there(now)) return now;
      throw error;
    }
  }
}
