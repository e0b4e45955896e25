import { createHash } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  UnprocessableEntityException,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DeliveryMethod } from '@spc/shared-contracts';
import { CatalogService } from '../catalog/catalog.service';
import { InventoryService } from '../inventory/inventory.service';
import { canonicalEmail, canonicalPhone } from '../common/identifiers';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DeliveryService } from '../delivery/delivery.service';
import { UsersService } from '../users/users.service';
import type { CreateOrderDto, DeliveryInfoDto } from './dto/order.dto';
import { OrderHoldLimits, type OrderSource } from './order-hold-limits';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { newPurchaseNumber } from './purchase-number';

export interface Placement {
  order: OrderRecord;
  /** True when an earlier request with the same Idempotency-Key placed this order. */
  replayed: boolean;
}

/**
 * Places orders so that stock is never oversold and nothing is lost when the process dies midway:
 * the order is written first as `reserving`; each line's stock is then reserved on its product in
 * one conditional update that also records the order's id there; the order becomes `placed` last.
 * A reconciler (at start-up and every few seconds) undoes placements older than a threshold that
 * never became `placed`, and finishes cancellations whose stock return was interrupted. No step
 * holds a lock: each is one conditional update, and the order's `placement` decides atomically
 * whether a slow placement or the reconciler wins (`reserving` becomes either `placed` or
 * `undoing`, never both).
 */
@Injectable()
export class OrderPlacementService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OrderPlacementService.name);
  private timer?: NodeJS.Timeout;
  private reconciling = false;
  /** The pass started at start-up (tests and the shutdown wait for it). */
  startup: Promise<void> = Promise.resolve();

  constructor(
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogService,
    private readonly inventory: InventoryService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly holdLimits: OrderHoldLimits,
    private readonly deliveryZones: DeliveryService,
  ) {}

  async place(
    actor: Principal | undefined,
    dto: CreateOrderDto,
    idempotencyKey?: string,
    clientAddress?: string,
  ): Promise<Placement> {
    const lines = mergeLines(dto.products);
    this.holdLimits.checkUnits(lines);
    const delivery = await this.deliveryFor(actor, dto.guestInfo ?? undefined);
    const method = deliveryMethodOf(dto);
    const source: OrderSource = {
      phoneNumber: delivery.phoneNumber,
      email: delivery.email,
      accountId: actor?.id,
      clientAddress,
    };

    let key: string | undefined;
    if (idempotencyKey) {
      // A guest's keys are their own: scoped by the order's phone and e-mail, not shared by all guests.
      const owner =
        actor?.id ??
        `guest-${createHash('sha256')
          .update(`${canonicalPhone(delivery.phoneNumber)}\n${canonicalEmail(delivery.email)}`)
          .digest('hex')
          .slice(0, 32)}`;
      key = `${owner}:${idempotencyKey}`;
      const fingerprint = createHash('sha256')
        .update(JSON.stringify({ lines, delivery, method }))
        .digest('hex');
      const claim = await this.orders.claimKey(key, fingerprint);
      if (!claim.claimed) {
        if (claim.fingerprint !== fingerprint) {
          throw new UnprocessableEntityException({
            message: 'This Idempotency-Key was already used for a different order',
            code: 'IDEMPOTENCY_KEY_REUSED',
          });
        }
        const existing = claim.orderId ? await this.orders.findById(claim.orderId) : null;
        if (existing) return { order: existing, replayed: true };
        throw new ConflictException(
          'This order is still being placed. Please wait a moment and try again.',
        );
      }
    }

    try {
      const order = await this.reserve(actor, lines, delivery, method, source);
      if (key) await this.orders.completeKey(key, order._id);
      if (actor?.role === 'customer' && dto.guestInfo) {
        await this.users
          .updateDeliveryDetails(actor.id, dto.guestInfo)
          .catch((e: Error) => this.logger.warn(`Could not save delivery details: ${e.message}`));
      }
      return { order, replayed: false };
    } catch (error) {
      if (key) await this.orders.releaseKey(key);
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
  async returnStock(order: OrderRecord, by?: Principal | null): Promise<void> {
    // At 'done' every line is back and some markers may already be cleared: restocking again would
    // return those lines a second time (the restock marker is what makes a restock count once).
    if (order.stockReturn !== 'done') {
      for (const line of order.products)
        await this.inventory.restock(line.product._id, order._id, line.quantity, {
          purchaseNumber: order.purchaseNumber,
          by,
          note: `Order ${order.purchaseNumber} cancelled: its stock came back`,
        });
      await this.orders.setFlags(order._id, { stockReturn: 'done' });
    }
    for (const line of order.products)
      await this.inventory.clearRestockMarker(line.product._id, order._id);
    await this.orders.setFlags(order._id, { stockReturn: 'cleared' });
  }

  onApplicationBootstrap(): void {
    // Not awaited: the API serves meanwhile (stock a dead placement holds is only unavailable until
    // the pass returns it).
    this.startup = this.reconcile({ atStartup: true });
    this.timer = setInterval(
      () => void this.reconcile(),
      Math.max(1000, this.config.orders.reconcileAfterMs / 2),
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.startup;
  }

  /** Finishes or undoes what an interrupted placement or cancellation left. */
  async reconcile({
    atStartup = false,
    olderThanMs = this.config.orders.reconcileAfterMs,
  } = {}): Promise<void> {
    if (this.reconciling) return;
    this.reconciling = true;
    try {
      const before = new Date(Date.now() - olderThanMs);
      const { reserving, unsettled, returning } = await this.orders.unfinished(before);
      for (const order of reserving) {
        // Only if still unplaced: a slow placement may finish first (then it is left alone).
        if (order.placement === 'reserving' && !(await this.orders.markUndoing(order._id)))
          continue;
        await this.releaseAll(order);
        await this.orders.delete(order._id);
        this.logger.warn(`Undid the interrupted placement of ${order.purchaseNumber}`);
      }
      for (const order of unsettled) await this.settle(order);
      for (const stale of returning) {
        // Read again: a cancellation still running may have finished meanwhile.
        const order = await this.orders.findAnyById(stale._id);
        if (order?.stockReturn !== 'pending' && order?.stockReturn !== 'done') continue;
        await this.returnStock(order);
        this.logger.warn(`Finished the interrupted stock return of ${order.purchaseNumber}`);
      }
      await this.orders.releaseStaleKeys(before);
    } catch (error) {
      this.logger.error(
        `Order reconciliation failed${atStartup ? ' at start-up' : ''}: ${(error as Error).message}`,
      );
    } finally {
      this.reconciling = false;
    }
  }

  private async reserve(
    actor: Principal | undefined,
    lines: { _id: string; quantity: number }[],
    delivery: DeliveryInfoDto,
    method: DeliveryMethod,
    source: OrderSource,
  ): Promise<OrderRecord> {
    const products = await this.catalog.findForOrder(lines.map((l) => l._id));
    const byId = new Map(products.map((p) => [p._id, p]));
    const missing = lines.filter((l) => !byId.has(l._id));
    if (missing.length) {
      throw new ConflictException({
        message: 'A product in your cart is no longer sold. Please remove it and try again.',
        code: 'PRODUCT_UNAVAILABLE',
        errors: missing.map((l) => ({
          field: `products.${l._id}`,
          messages: ['This product no longer exists'],
        })),
      });
    }
    const orderLines = lines.map((l) => {
      const p = byId.get(l._id)!;
      return {
        productId: p._id,
        productName: p.productName,
        productImage: p.productImage,
        unitPrice: p.effectivePrice,
        quantity: l.quantity,
        lineTotal: p.effectivePrice * l.quantity,
      };
    });
    const subtotal = orderLines.reduce((sum, l) => sum + l.lineTotal, 0);
    const now = new Date();
    // The fee and date come from the shop's zones; any figure the client sent is ignored.
    const quote = await this.deliveryZones.quote(method, delivery.county, delivery.subCounty, now);

    const units = orderLines.reduce((sum, l) => sum + l.quantity, 0);
    // Written holding its slots of the open unpaid order caps, or refused (409) when one is full.
    const order = await this.holdLimits.hold(source, units, (holdSlots) =>
      this.insertWithFreshNumber({
        placedBy: actor?.id ?? null,
        guestInfo: { ...delivery, subCounty: delivery.subCounty ?? '', ward: delivery.ward ?? '' },
        clientAddress: source.clientAddress ?? null,
        holdSlots,
        products: orderLines,
        subtotal,
        shippingFee: quote.fee,
        delivery: { method: quote.method, zoneName: quote.zoneName, days: quote.days },
        totalAmount: subtotal + quote.fee,
        orderDate: now,
        estimatedDeliveryDate: quote.estimatedDeliveryDate,
      }),
    );

    const reserved: string[] = [];
    for (const line of orderLines) {
      const ref = { by: actor, purchaseNumber: order.purchaseNumber };
      if (await this.inventory.reserveStock(line.productId, order._id, line.quantity, ref)) {
        reserved.push(line.productId);
        continue;
      }
      for (const productId of reserved)
        await this.inventory.releaseReservation(productId, order._id, ref);
      await this.orders.delete(order._id);
      const left = (await this.catalog.findForOrder([line.productId]))[0]?.productQuantity ?? 0;
      throw new ConflictException({
        message:
          left > 0
            ? `Only ${left} left of ${line.productName}; please lower the quantity`
            : `${line.productName} is out of stock`,
        code: 'OUT_OF_STOCK',
        errors: [{ field: `products.${line.productId}`, messages: [`available: ${left}`] }],
      });
    }

    if (!(await this.orders.markPlaced(order._id))) {
      // The reconciler judged this placement abandoned (it took longer than the threshold) and undid
      // it; a line reserved after it released the others is given back here.
      await this.releaseAll(order);
      throw new ConflictException(
        'Placing the order took too long and was undone. Please try again.',
      );
    }
    const placed = { ...order, placement: 'placed' as const };
    // Every line's sale movement was copied to the ledger when it was reserved, just above.
    await this.settle(placed, true);
    return placed;
  }

  private async releaseAll(order: OrderRecord): Promise<void> {
    for (const line of order.products)
      await this.inventory.releaseReservation(line.product._id, order._id, order);
  }

  private async settle(order: OrderRecord, reservedHere = false): Promise<void> {
    for (const line of order.products)
      await this.inventory.settleReservation(line.product._id, order._id, reservedHere);
    await this.orders.setFlags(order._id, { ledgerSettled: true });
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
        if (!isDuplicateKeyError(error) || this.orders.isHoldSlotCollision(error) || attempt >= 4)
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

/** One line per product: the same product twice in a cart becomes one line with both quantities. */
export function mergeLines(
  items: { _id: string; quantity: number }[],
): { _id: string; quantity: number }[] {
  const merged = new Map<string, number>();
  for (const item of items) {
    const id = item._id.toLowerCase();
    merged.set(id, (merged.get(id) ?? 0) + item.quantity);
  }
  return [...merged].map(([_id, quantity]) => ({ _id, quantity }));
}
