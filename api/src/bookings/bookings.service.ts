import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { PAGE_SIZE } from '@spc/shared-contracts';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import { customerView } from '../orders/customer-view';
import type { OrderDto } from '../orders/dto/order-view.dto';
import { OrderBookings } from './booking-orders';
import { OrderCredits } from '../orders/order-credits';
import type { OrderRecord } from '../orders/order.types';
import { OrdersService } from '../orders/orders.service';
import { balancesDueBy } from '../common/shop-clock';
import { BookingMove } from './booking-move';
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
    private readonly moves: BookingMove,
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
   * the batch's conditional update), keeps its money and its state (`Booked`, or `Paid` when paid
   * in full). Staff, or the customer who owns it.
   */
  async move(actor: Principal, id: string, dto: MoveBookingDto): Promise<OrderDto> {
    const order = await this.booking(id, actor);
    await this.orders.apply(this.moves.step, actor, order, { batchId: dto.batchId });
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
