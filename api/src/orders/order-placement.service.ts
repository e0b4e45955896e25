import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { BOOKING_MESSAGES, type DeliveryMethod } from '@spc/shared-contracts';
import { BatchHold } from '../batches/batch-hold';
import { CatalogService } from '../catalog/catalog.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { productsUnavailable, ReadyStockHold } from '../inventory/ready-stock-hold';
import type { StockMovementView } from '../inventory/stock-ledger.repository';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Actor, Principal } from '../common/principal';
import { DeliveryService } from '../delivery/delivery.service';
import { UsersService } from '../users/users.service';
import type { CreateOrderDto, DeliveryInfoDto } from './dto/order.dto';
import { OrderHoldLimits, type OrderSource } from './order-hold-limits';
import { PlacementKeys } from './order-idempotency';
import { OrderReconciler } from './order-reconciler';
import { OrderStock } from './order-stock';
import { mergeCartLines, priceCartLines, type CartLine } from './order-lines';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrderRecoveryRepository } from './order-recovery.repository';
import { OrderHoldSlotsRepository } from './order-hold-slots.repository';
import type { OrderBooking } from './schemas/order.schema';
import { newPurchaseNumber } from './purchase-number';

export interface Placement {
  order: OrderRecord;
  /** True when an earlier request with the same Idempotency-Key placed this order. */
  replayed: boolean;
}

type Line = CartLine;
type Priced = Awaited<ReturnType<OrderPlacementService['priceLines']>>;
type BookingTerms = OrderBooking;

/**
 * Places orders so that stock is never oversold and nothing is lost when the process dies midway,
 * as a saga of named steps (`saga`), each undone when a later one fails. No step holds a lock: each
 * is one conditional update. What a crash leaves is finished or undone by `OrderReconciler`.
 */
@Injectable()
export class OrderPlacementService {
  private readonly logger = new Logger(OrderPlacementService.name);

  constructor(
    private readonly orders: OrdersRepository,
    private readonly recovery: OrderRecoveryRepository,
    private readonly holdSlots: OrderHoldSlotsRepository,
    private readonly catalog: CatalogService,
    private readonly users: UsersService,
    private readonly holdLimits: OrderHoldLimits,
    private readonly deliveryZones: DeliveryService,
    private readonly keys: PlacementKeys,
    private readonly stock: OrderStock,
    private readonly reconciler: OrderReconciler,
    private readonly batchHold: BatchHold,
    private readonly readyStock: ReadyStockHold,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async place(
    actor: Principal | undefined,
    dto: CreateOrderDto,
    idempotencyKey?: string,
    clientAddress?: string,
  ): Promise<Placement> {
    const lines = mergeCartLines(dto.products);
    const batchId = bookedBatch(dto.products);
    this.holdLimits.checkUnits(lines);
    const delivery = await this.deliveryFor(actor, dto.guestInfo ?? undefined);
    const method = deliveryMethodOf(dto);
    const source: OrderSource = {
      phoneNumber: delivery.phoneNumber,
      email: delivery.email,
      accountId: actor?.id,
      clientAddress,
    };

    const claim = await this.keys.claim(idempotencyKey, actor?.id, delivery, {
      lines,
      delivery,
      method,
      // Only on a booking: an ordinary order's fingerprint stays as it was.
      ...(batchId ? { batchId } : {}),
    });
    if (claim.replay) return { order: claim.replay, replayed: true };
    const { key } = claim;

    try {
      const order = await this.saga(actor, lines, delivery, method, source, batchId);
      await this.keys.complete(key, order._id);
      if (actor?.role === 'customer' && dto.guestInfo) {
        await this.users
          .updateDeliveryDetails(actor.id, dto.guestInfo)
          .catch((e: Error) => this.logger.warn(`Could not save delivery details: ${e.message}`));
      }
      return { order, replayed: false };
    } catch (error) {
      await this.keys.release(key);
      throw error;
    }
  }

  /**
   * The delivery terms of this order were it going to another place: its own method, fee and days
   * from the zones as they are now, the date counted from the day it was placed.
   */
  requote(order: OrderRecord, place: { county: string; subCounty?: string }) {
    return this.deliveryZones.quote(
      order.delivery.method,
      place.county,
      place.subCounty,
      new Date(order.orderDate),
    );
  }

  /**
   * Returns a cancelled order's stock, once per line even if called again after a crash. `by`: who
   * cancelled it, credited with the return in the stock ledger (none for the shop itself).
   */
  returnStock(order: OrderRecord, by?: Actor | null): Promise<void> {
    return this.stock.returnStock(order, by);
  }

  /** A dispatched booking's seedlings out of its batch as a sale, once. */
  fulfilBooking(order: OrderRecord, by?: Actor | null): Promise<number> {
    return this.stock.fulfilBooking(order, by);
  }

  /** The reconciler's pass at start-up (tests and the shutdown wait for it). */
  get startup(): Promise<void> {
    return this.reconciler.startup;
  }

  /** Finishes or undoes what an interrupted placement or cancellation left. */
  reconcile(options?: { atStartup?: boolean; olderThanMs?: number }): Promise<void> {
    return this.reconciler.reconcile(options);
  }

  /**
   * The placement saga, top to bottom. Each step undoes its own work when it fails; a crash between
   * steps is the reconciler's (an order left `reserving` is undone, an unsettled one settled). The
   * last steps (placed, settled) are taken with the placements finishing at the same moment, a
   * write for all of them (`OrderStock.placeAndSettle`).
   */
  private async saga(
    actor: Principal | undefined,
    lines: Line[],
    delivery: DeliveryInfoDto,
    method: DeliveryMethod,
    source: OrderSource,
    batchId: string | null,
  ): Promise<OrderRecord> {
    const priced = await this.priceLines(lines, delivery, method);
    // Step 1b of a booking: its batch checked for these lines, and its deposit.
    const booking = batchId
      ? await this.batchHold.terms(batchId, priced.lines, priced.subtotal + priced.quote.fee)
      : null;
    const order = await this.insertReserving(actor, priced, delivery, source, booking);
    // Step 3, the lines held: a booking's on its batch, any other order's in ready stock. A
    // refused hold gives back what it took; the order is then deleted.
    let movements: StockMovementView[] = [];
    try {
      if (booking) await this.batchHold.hold(order, booking.batchId);
      else movements = await this.readyStock.hold(order, priced.lines, actor);
    } catch (error) {
      await this.orders.delete(order._id);
      throw error;
    }
    // An account deleted while this was placed (the session still open a moment): undone as the
    // reconciler undoes an interrupted placement; the order never names a person erased.
    if (actor?.role === 'customer' && (await this.users.isClosed(actor.id))) {
      // Claimed as a reconciler claims an undo, so none undoes it beside us.
      if (await this.recovery.claimUndo(order._id, this.config.orders.reconcileAfterMs)) {
        await this.stock.releaseAll(order);
        await this.orders.delete(order._id);
      }
      throw new UnauthorizedException('This account was deleted');
    }
    // Placed, then settled, in one write each with the other placements finishing now.
    // undo (the reconciler undid it first): release what is left
    await this.markPlaced(order, movements);
    return { ...order, placement: 'placed' as const };
  }

  /** Step 1: each line at the product's price now, the fee and date from the shop's zones. */
  private async priceLines(lines: Line[], delivery: DeliveryInfoDto, method: DeliveryMethod) {
    // From the catalogue in memory (no read per order): the prices the shop shows.
    const products = await this.catalog.findForPricing(lines.map((l) => l._id));
    const byId = new Map(products.map((p) => [p._id, p]));
    const missing = lines.filter((l) => !byId.has(l._id));
    if (missing.length) throw productsUnavailable(missing.map((l) => l._id));
    const priced = priceCartLines(lines, byId);
    // The unit limits count seedlings (a tray of 50 holds 50 of the stock).
    this.holdLimits.checkUnits(priced);
    const subtotal = priced.reduce((sum, l) => sum + l.lineTotal, 0);
    const now = new Date();
    // Any figure the client sent is ignored.
    const quote = await this.deliveryZones.quote(method, delivery.county, delivery.subCounty, now);
    return { lines: priced, subtotal, quote, now };
  }

  /** Step 2: the order written as `reserving`, holding its slots of the open unpaid order caps. */
  private insertReserving(
    actor: Principal | undefined,
    { lines, subtotal, quote, now }: Priced,
    delivery: DeliveryInfoDto,
    source: OrderSource,
    booking: BookingTerms | null = null,
  ): Promise<OrderRecord> {
    const units = lines.reduce((sum, l) => sum + l.quantity * l.seedlings, 0);
    // Refused (409) when one of the caps is full.
    return this.holdLimits.hold(source, units, (holdSlots) =>
      this.insertWithFreshNumber({
        placedBy: actor?.id ?? null,
        guestInfo: { ...delivery, subCounty: delivery.subCounty ?? '', ward: delivery.ward ?? '' },
        clientAddress: source.clientAddress ?? null,
        holdSlots,
        products: lines,
        subtotal,
        shippingFee: quote.fee,
        delivery: { method: quote.method, zoneName: quote.zoneName, days: quote.days },
        totalAmount: subtotal + quote.fee,
        orderDate: now,
        estimatedDeliveryDate: quote.estimatedDeliveryDate,
        ...(booking ? { booking } : {}),
      }),
    );
  }

  /**
   * Steps 4 and 5: `reserving` becomes `placed`, unless the reconciler judged it abandoned first;
   * then settled.
   */
  private async markPlaced(order: OrderRecord, movements: StockMovementView[]): Promise<void> {
    if (await this.stock.placeAndSettle(order, movements)) return;
    // It took longer than the threshold and was undone; a line reserved after the reconciler
    // released the others is given back here.
    await this.stock.releaseAll(order);
    throw new ConflictException(
      'Placing the order took too long and was undone. Please try again.',
    );
  }

  private async insertWithFreshNumber(
    order: Parameters<OrdersRepository['insert']>[0] extends infer T
      ? Omit<T, 'purchaseNumber'>
      : never,
  ): Promise<OrderRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.orders.insert({
          ...order,
          purchaseNumber: newPurchaseNumber(),
        } as Parameters<OrdersRepository['insert']>[0]);
      } catch (error) {
        // A purchase number drawn twice is drawn again; a cap slot taken meanwhile is the caller's.
        if (
          !isDuplicateKeyError(error) ||
          this.holdSlots.isHoldSlotCollision(error) ||
          attempt >= 4
        )
          throw error;
      }
    }
  }

  /** Guests must give delivery details; a signed-in customer may rely on their saved ones. */
  private async deliveryFor(
    actor: Principal | undefined,
    given: DeliveryInfoDto | undefined,
  ): Promise<DeliveryInfoDto> {
    if (given) return given;
    if (!actor)
      throw new BadRequestException('Delivery details (guestInfo) are required for a guest order');
    const user = await this.users.get(actor.id);
    if (!user.phoneNumber || !user.county || !user.streetAddress) {
      throw new BadRequestException(
        'Please fill in your delivery details (phone number, county and street address)',
      );
    }
    // Saved before counties were checked against the list: read with the list's spelling, or refused.
    let place;
    try {
      place = this.deliveryZones.checkPlace(user.county);
    } catch {
      throw new BadRequestException({
        message: `Your saved county (${user.county.slice(0, 60)}) is not a county of Kenya; please choose your county in your delivery details`,
        code: 'VALIDATION_FAILED',
        errors: [
          { field: 'county', messages: [`${user.county.slice(0, 60)} is not a county of Kenya`] },
        ],
      });
    }
    return {
      fullName: user.fullName,
      phoneNumber: user.phoneNumber,
      email: user.email,
      county: place.county,
      streetAddress: user.streetAddress,
    };
  }
}

/**
 * The batch an order books, or null for an ordinary order: all its lines must name the same batch
 * (400 otherwise, nothing written).
 */
function bookedBatch(items: { batchId?: string }[]): string | null {
  const ids = new Set(items.map((i) => i.batchId?.toLowerCase() ?? ''));
  if (!ids.has('')) {
    if (ids.size === 1) return [...ids][0]!;
  } else if (ids.size === 1) return null;
  throw new BadRequestException({ message: BOOKING_MESSAGES.oneBatch, code: 'VALIDATION_FAILED' });
}

/** Delivery unless the shopper chose collection (old clients send no method). */
function deliveryMethodOf(dto: CreateOrderDto): DeliveryMethod {
  const top = dto.deliveryMethod;
  const nested = dto.delivery?.method;
  if (top && nested && top !== nested) {
    throw new BadRequestException(
      `deliveryMethod (${top}) and delivery.method (${nested}) disagree; send one of them`,
    );
  }
  return top ?? nested ?? 'delivery';
}
