import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { PAGE_SIZE } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { BatchesService } from '../batches/batches.service';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import { customerView } from '../orders/customer-view';
import type { OrderDto } from '../orders/dto/order-view.dto';
import { OrderBookings } from './booking-orders';
import { OrderCredits } from '../orders/order-credits';
import type { OrderRecord } from '../orders/order.types';
import { OrdersService } from '../orders/orders.service';
import { balancesDueBy } from '../common/shop-clock';
import { SmsService } from '../sms/sms.service';
import { REFUND_BOOKING } from './booking-steps';
import type {
  BookingCountsData,
  BookingQueueData,
  BookingQueueQueryDto,
  BookingQueueTab,
  MoveBookingDto,
  RecordDepositDto,
} from './dto/bookings.dto';

/** A booking's deposit recorded, moved, refunded; the bookings queue. */
@Injectable()
export class BookingsService {
  constructor(
    private readonly orders: OrdersService,
    private readonly bookings: OrderBookings,
    private readonly credits: OrderCredits,
    private readonly batches: BatchesService,
    private readonly sms: SmsService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Staff record a deposit they saw paid: exactly what is due of the deposit (400 naming it), a
   * code no other order carries (409), credited like any payment (the deposit reached books it).
   */
  async recordDeposit(actor: Principal, id: string, dto: RecordDepositDto): Promise<OrderDto> {
    const order = await this.booking(id);
    if (order.orderStatus === 'Cancelled')
      throw new ConflictException({
        message: `Booking ${order.purchaseNumber} is cancelled`,
        code: 'ILLEGAL_TRANSITION',
      });
    await this.credits.recordDeposit(actor, order, dto);
    return this.orders.get(actor, id);
  }

  /**
   * An affected booking moves to another growing batch of the same product with room (held by
   * the batch's conditional update), keeps its money and its state (`Booked`, or `Paid` when paid in full). Staff, or the
   * customer who owns it.
   */
  async move(actor: Principal, id: string, dto: MoveBookingDto): Promise<OrderDto> {
    const order = await this.booking(id, actor);
    const b = order.booking!;
    if (b.state !== 'Affected')
      throw new ConflictException({
        message: `Only a booking whose batch failed or fell short can be moved; booking ${order.purchaseNumber} is ${b.state.toLowerCase()}`,
        code: 'ILLEGAL_TRANSITION',
      });
    if (dto.batchId === b.batchId)
      throw new BadRequestException('Choose another batch than the one that failed or fell short');
    const from = await this.batches.get(b.batchId);
    const seedlings = order.products.reduce((n, l) => n + l.quantity * l.unit.seedlings, 0);
    const to = await this.batches.checkBookable(dto.batchId, from.productId, seedlings);
    // Claimed first, so a crash midway is finished or undone by the sweep (BookingLifeService).
    if (!(await this.bookings.claimMove(order, to._id)))
      throw new ConflictException({
        message: 'The booking changed while you were working on it; please reload and try again',
        code: 'CONFLICT',
      });
    try {
      await this.batches.hold(to._id, to.productId, order._id, seedlings);
    } catch (error) {
      await this.bookings.endMove(order._id);
      throw error;
    }
    const moved = await this.bookings.moveTo(order, to);
    if (!moved) {
      await this.batches.release(to._id, order._id, { purchaseNumber: order.purchaseNumber });
      await this.bookings.endMove(order._id);
      throw new ConflictException({
        message: 'The booking changed while you were working on it; please reload and try again',
        code: 'CONFLICT',
      });
    }
    // Its seedlings on the old batch go back (bookable again, or lost with a failed batch).
    await this.batches.release(from._id, order._id, {
      purchaseNumber: order.purchaseNumber,
      by: actor,
    });
    await this.bookings.endMove(order._id);
    await this.audit.record(
      actor,
      'booking.move',
      `${actor.fullName} moved booking ${order.purchaseNumber} (${seedlings} seedlings) from the batch ready on ${from.readyOn} to the batch ready on ${to.readyOn}; its deposit goes with it`,
      { type: 'order', id: order._id, label: order.purchaseNumber },
    );
    void this.sms.notifyOrder(moved, 'moved');
    return this.orders.get(actor, id);
  }

  /** An affected booking refunded: its money back by M-Pesa, the order cancelled (staff or owner). */
  async refund(actor: Principal, id: string): Promise<OrderDto> {
    await this.booking(id, actor);
    const order = await this.orders.run(REFUND_BOOKING, actor, id, undefined);
    return actor.role === 'customer' ? customerView(order) : order;
  }

  /** A page of the bookings queue's tab. */
  async queue(query: BookingQueueQueryDto, now = new Date()): Promise<BookingQueueData> {
    const { page, limit, skip } = pageRequest(query, PAGE_SIZE.orders);
    const { items, total } = await this.tab(query.tab, now, { skip, limit });
    return {
      orders: await this.orders.views(items),
      totalOrders: total,
      totalPages: totalPages(total, limit),
      page,
    };
  }

  async counts(now = new Date()): Promise<BookingCountsData> {
    const [deposits, balances, dispatch, affected] = await Promise.all(
      (['deposits', 'balances', 'dispatch', 'affected'] as const).map(
        async (tab) => (await this.tab(tab, now, { limit: 1 })).total,
      ),
    );
    return { deposits: deposits!, balances: balances!, dispatch: dispatch!, affected: affected! };
  }

  private tab(
    tab: BookingQueueTab,
    now: Date,
    page: { skip?: number; limit: number },
  ): Promise<{ items: OrderRecord[]; total: number }> {
    switch (tab) {
      case 'deposits':
        return this.bookings.inState('Deposit due', 'Pending', page);
      case 'balances':
        return this.bookings.inState('Balance due', 'Pending', {
          ...page,
          dueBy: balancesDueBy(now),
        });
      case 'dispatch':
        return this.bookings.inState('Paid', ['Pending', 'Processing'], page);
      case 'affected':
        return this.bookings.inState('Affected', 'Pending', page);
    }
  }

  /** The booking order with this id: 404 if none (or another customer's), 400 if no booking. */
  private async booking(id: string, actor?: Principal): Promise<OrderRecord> {
    const order = await this.orders.findAnyOrder(id);
    if (!order || (actor?.role === 'customer' && order.placedBy !== actor.id))
      throw new NotFoundException('No order with this id');
    if (!order.booking) throw new BadRequestException('This order is not a booking');
    return order;
  }
}
