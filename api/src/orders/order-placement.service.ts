import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { BOOKING_MESSAGES, type DeliveryMethod } from '@spc/shared-contracts';
import { BatchHold } from '../batches/batch-hold';
import { CatalogService } from '../catalog/catalog.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Actor, Principal } from '../common/principal';
import { runSaga, SAGA_DONE, type SagaStep } from '../common/saga';
import { DeliveryService } from '../delivery/delivery.service';
import { UsersService } from '../users/users.service';
import type { CreateOrderDto, DeliveryInfoDto } from './dto/order.dto';
import { OrderHoldLimits } from './order-hold-limits';
import { holdsOfCart, OrderHolds } from './order-holds';
import { PlacementKeys, TillSaleKeys } from './order-idempotency';
import {
  cartPlan,
  placementSteps,
  type PlacementDeps,
  type PlacementRun,
} from './order-placement-steps';
import { GATE_BUYER, gatePlan, type GateSaleFields } from './order-gate-plan';
import { READY_STOCK } from './order-holds';
import { OrderOrganisationPrices } from './order-organisation-prices';
import { OrderReconciler } from './order-reconciler';
import { OrderStock } from './order-stock';
import { mergeCartLines, type CartLine } from './order-lines';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrderRecoveryRepository } from './order-recovery.repository';
import { OrderHoldSlotsRepository } from './order-hold-slots.repository';

export interface Placement {
  order: OrderRecord;
  /** True when an earlier request with the same Idempotency-Key placed this order. */
  replayed: boolean;
}

/** A placement request as its saga fills it in: the key, then the order placed (or replayed). */
interface PlacementRequest extends PlacementRun {
  idempotencyKey?: string;
  fingerprint: Record<string, unknown>;
  key?: string;
  replay?: OrderRecord;
  guestInfo?: DeliveryInfoDto | null;
}

/**
 * Places orders so that stock is never oversold and nothing is lost when the process dies midway,
 * as a saga of named steps (`placementSteps`, run by `runSaga` inside the request's own: its
 * Idempotency-Key claimed, then completed), each undone when a later one fails. No step holds a
 * lock: each is one conditional update. What a crash leaves is finished or undone by `OrderReconciler`.
 */
@Injectable()
export class OrderPlacementService {
  private readonly logger = new Logger(OrderPlacementService.name);

  constructor(
    orders: OrdersRepository,
    recovery: OrderRecoveryRepository,
    holdSlots: OrderHoldSlotsRepository,
    catalog: CatalogService,
    private readonly users: UsersService,
    private readonly holdLimits: OrderHoldLimits,
    private readonly deliveryZones: DeliveryService,
    private readonly keys: PlacementKeys,
    /** A till sale's keys: never expire (issue 47). */
    private readonly tillKeys: TillSaleKeys,
    /** The orders' held stock: given back, released, checked and handed over (the order steps'). */
    readonly stock: OrderStock,
    private readonly reconciler: OrderReconciler,
    holds: OrderHolds,
    batchHold: BatchHold,
    organisationPrices: OrderOrganisationPrices,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const deps = {
      orders,
      recovery,
      holdSlots,
      catalog,
      users,
      holdLimits,
      deliveryZones,
      stock,
      holds,
      batchHold,
      reconcileAfterMs: config.orders.reconcileAfterMs,
    };
    this.deps = deps;
    const steps = placementSteps(deps, cartPlan(deps, organisationPrices));
    this.request = this.requestSteps((run) => runSaga(steps, run));
  }

  /** What the placement's steps use (a gate sale's plan takes the same). */
  private readonly deps: PlacementDeps;

  /** The request's saga around a placement: its key claimed first, completed after. */
  private requestSteps(
    place: (run: PlacementRequest) => Promise<unknown>,
    keys: PlacementKeys = this.keys,
  ): SagaStep<PlacementRequest>[] {
    return [
      {
        /** The same Idempotency-Key answers the same order; let go when the placement fails. */
        name: 'claim the idempotency key',
        invoke: async (run) => {
          const claim = await keys.claim(
            run.idempotencyKey,
            run.actor?.id,
            run.delivery,
            run.fingerprint,
          );
          if (claim.replay) {
            run.replay = claim.replay;
            return SAGA_DONE;
          }
          run.key = claim.key;
        },
        compensate: (run) => keys.release(run.key),
      },
      {
        /** The placement's own steps, each undone by its own saga when a later one fails. */
        name: 'place the order',
        invoke: async (run) => {
          await place(run);
        },
      },
      {
        name: 'complete the idempotency key',
        invoke: (run) => keys.complete(run.key, run.order!._id),
      },
      {
        /** A customer's delivery details saved for next time; a failure is only logged. */
        name: 'save the delivery details',
        invoke: async ({ actor, guestInfo }) => {
          if (actor?.role !== 'customer' || !guestInfo) return;
          await this.users
            .updateDeliveryDetails(actor.id, guestInfo)
            .catch((e: Error) => this.logger.warn(`Could not save delivery details: ${e.message}`));
        },
      },
    ];
  }

  /** The request's saga: its key, the placement's own steps, then what follows them. */
  private readonly request: SagaStep<PlacementRequest>[];

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
    const kraPin = await this.kraPinFor(actor, dto.kraPin);
    const run = await runSaga(this.request, {
      actor,
      lines,
      holdOf: holdsOfCart(dto.products),
      delivery,
      method,
      source: {
        phoneNumber: delivery.phoneNumber,
        email: delivery.email,
        accountId: actor?.id,
        clientAddress,
      },
      idempotencyKey,
      // Only on a booking, only with a PIN: an ordinary order's fingerprint stays as it was.
      fingerprint: {
        lines,
        delivery,
        method,
        ...(batchId ? { batchId } : {}),
        ...(kraPin ? { kraPin } : {}),
      },
      guestInfo: dto.guestInfo,
      kraPin,
    } satisfies PlacementRequest);
    if (run.replay) return { order: run.replay, replayed: true };
    return { order: { ...run.order!, placement: 'placed' as const }, replayed: false };
  }

  /**
   * A sale at the gate (issue 46): the same saga, key and stock holds as any placement, with the
   * gate's plan (`gatePlan`): ready stock, the unit's rules, no shopper's caps, collected now.
   * The Idempotency-Key is the clerk's own.
   */
  async placeAtGate(
    actor: Principal,
    sale: {
      lines: CartLine[];
      /** The buyer's phone, for an SMS receipt (optional). */
      phone: string | null;
      fields: GateSaleFields;
      fingerprint: Record<string, unknown>;
    },
    idempotencyKey?: string,
  ): Promise<Placement> {
    const lines = mergeCartLines(sale.lines);
    // The key on the order too: a crash before the key is completed leaves it findable.
    const fields = idempotencyKey
      ? { ...sale.fields, till: { ...sale.fields.till, key: `${actor.id}:${idempotencyKey}` } }
      : sale.fields;
    const steps = placementSteps(this.deps, gatePlan(this.deps, fields));
    const delivery = {
      fullName: GATE_BUYER,
      phoneNumber: sale.phone ?? '',
      email: '',
      county: '',
      streetAddress: 'Collected at the gate',
    };
    const run = await runSaga(
      this.requestSteps((r) => runSaga(steps, r), this.tillKeys),
      {
        actor,
        lines,
        holdOf: () => READY_STOCK,
        delivery,
        method: 'collection',
        source: { phoneNumber: '', email: '', accountId: actor.id },
        idempotencyKey,
        fingerprint: gateFingerprint(sale),
        guestInfo: null,
        kraPin: null,
      } satisfies PlacementRequest,
    );
    if (run.replay) return { order: run.replay, replayed: true };
    return { order: { ...run.order!, placement: 'placed' as const }, replayed: false };
  }

  /**
   * The order a clerk's Idempotency-Key placed if it is this same sale (422 as `placeAtGate` when
   * the key was used for another), or null (none placed under it yet).
   */
  placedAtGateUnder(
    actor: Principal,
    sale: Parameters<OrderPlacementService['placeAtGate']>[1],
    idempotencyKey: string,
  ): Promise<OrderRecord | null> {
    return this.tillKeys.placedUnderSame(idempotencyKey, actor.id, gateFingerprint(sale));
  }

  /** The order a clerk's Idempotency-Key placed, or null (the till answers a sale sent again). */
  placedUnder(idempotencyKey: string, actor: Principal): Promise<OrderRecord | null> {
    return this.tillKeys.placedUnder(idempotencyKey, actor.id);
  }

  /**
   * The delivery terms of this order were it going to another place: its own method, fee and days
   * from the zones as they are now, the date counted from the day it was placed. An order from a
   * quotation keeps the fee its organisation accepted (as `quotationPlan` priced it): its total is
   * the one of its LPO, of its credit claimed and of its invoice.
   */
  async requote(order: OrderRecord, place: { county: string; subCounty?: string }) {
    const zone = await this.deliveryZones.quote(
      order.delivery.method,
      place.county,
      place.subCounty,
      new Date(order.orderDate),
    );
    return order.quotation ? { ...zone, fee: order.shippingFee } : zone;
  }

  /**
   * Returns a cancelled order's stock, once per line even if called again after a crash. `by`: who
   * cancelled it, credited with the return in the stock ledger (none for the shop itself).
   */
  returnStock(order: OrderRecord, by?: Actor | null): Promise<void> {
    return this.stock.returnStock(order, by);
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
   * The buyer's KRA PIN the order keeps (issue 45): the one given, checked by the DTO (empty: none);
   * left out, a signed-in customer's profile PIN (none for a guest, or staff placing an order).
   */
  private async kraPinFor(
    actor: Principal | undefined,
    given: string | null | undefined,
  ): Promise<string | null> {
    if (typeof given === 'string') return given || null;
    if (actor?.role !== 'customer') return null;
    return (await this.users.findById(actor.id))?.kraPin ?? null;
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
 * (400 otherwise, nothing written). Each line is held by its own hold, but an order keeps one
 * booking (one deposit, one batch) until it can keep one a batch.
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

/** What a gate sale sent again under its key must match: its lines, phone, session and payments. */
function gateFingerprint(sale: { lines: CartLine[]; phone: string | null; fingerprint: object }) {
  return { gate: true, lines: mergeCartLines(sale.lines), phone: sale.phone, ...sale.fingerprint };
}
