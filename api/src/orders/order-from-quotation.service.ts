import {
  BadRequestException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
} from '@nestjs/common';
import { QUOTATION_LIMITS, QUOTATION_MESSAGES } from '@spc/shared-contracts';
import { BatchHold } from '../batches/batch-hold';
import { BatchesService } from '../batches/batches.service';
import { CatalogService } from '../catalog/catalog.service';
import { DomainEvents } from '../common/events/domain-events';
import type { Principal } from '../common/principal';
import { runSaga } from '../common/saga';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DeliveryService } from '../delivery/delivery.service';
import { smsSender } from '../sms/sms-budgets';
import { UsersService } from '../users/users.service';
import { OrderCreditLimit } from './order-credit-limit';
import { OrderHoldLimits } from './order-hold-limits';
import { OrderHoldSlotsRepository } from './order-hold-slots.repository';
import { OrderHolds } from './order-holds';
import { placementSteps, type PlacementRun } from './order-placement-steps';
import {
  lpoKeyOf,
  quotationPlan,
  quotationRun,
  shortRefusal,
  type QuotationPlanDeps,
  type QuotedLine,
} from './order-quotation-plan';
import { shortLines } from './order-quotation-stock';
import { OrderRecoveryRepository } from './order-recovery.repository';
import { OrderStock } from './order-stock';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';

/** One line of an accepted quotation version, at the price agreed. */
export interface QuotationOrderLine {
  productId: string;
  unitId: string;
  /** Units of `unitId`. */
  quantity: number;
  /** Whole KES per unit, as the version priced it (not the shop's price today). */
  unitPrice: number;
  /** The growing batch that holds the line; null: ready stock. */
  batchId: string | null;
}

/** What accepting a quotation asks of the orders: one order, holding each line by its own hold. */
export interface QuotationOrderRequest {
  /** One order per quotation, however often (or concurrently) this is asked. */
  quotationId: string;
  version: number;
  organisationId: string;
  /** Who accepts: the organisation's approver, or staff on the buyer's written word. */
  actor: Principal;
  /** The customer account the order is placed for (its `placedBy`): the approver or the requester. */
  buyerAccountId: string;
  lines: QuotationOrderLine[];
  delivery: {
    fullName: string;
    phoneNumber: string;
    email: string;
    county: string;
    subCounty?: string | null;
    streetAddress: string;
  };
  /** Whole KES, as the version priced it. */
  deliveryFee: number;
  lpoNumber: string;
  /** On account (issue 43): the organisation's terms let it, as they stood at the acceptance. */
  onAccount: boolean;
}

/** How often a placement of the same quotation running beside this one is looked at again. */
const WAIT_STEP_MS = 100;

/**
 * Makes the order an accepted quotation becomes (issue 42): its lines at the prices agreed, each
 * held by its own hold (ready stock, or the batch it names); the organisation's credit limit
 * claimed; the caps on anonymous unpaid orders not applied. Refuses 409 `SHORT` (with the lines
 * short and the batches that could grow them), `CREDIT_LIMIT` or `LPO_TAKEN`, changing nothing.
 * It is the placement's saga (`placementSteps`) with the quotation's plan, so a crash midway is
 * undone or finished by `OrderReconciler` as any placement's; the order is an ordinary unpaid
 * order afterwards (paid by M-Pesa, the paybill or on delivery; it expires unpaid as any does).
 */
@Injectable()
export class OrderFromQuotationService {
  private readonly deps: QuotationPlanDeps;

  constructor(
    private readonly orders: OrdersRepository,
    recovery: OrderRecoveryRepository,
    holdSlots: OrderHoldSlotsRepository,
    private readonly catalog: CatalogService,
    users: UsersService,
    holdLimits: OrderHoldLimits,
    deliveryZones: DeliveryService,
    stock: OrderStock,
    holds: OrderHolds,
    batchHold: BatchHold,
    private readonly batches: BatchesService,
    creditLimit: OrderCreditLimit,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.deps = {
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
      batches,
      creditLimit,
      reconcileAfterMs: config.orders.reconcileAfterMs,
    };
  }

  /**
   * The quotation's one order: the one already placed for it (by an earlier call, or one running
   * beside this one, waited for), else placed now.
   */
  async place(request: QuotationOrderRequest): Promise<OrderRecord> {
    const lpoNumber = checkRequest(request);
    // A placement cut off by a crash is undone by the reconciler within two of its intervals.
    const deadline = Date.now() + 2 * this.config.orders.reconcileAfterMs + 5_000;
    for (;;) {
      const existing = await this.orders.findByQuotation(request.quotationId);
      if (existing?.placement === 'placed') return existing;
      if (!existing) {
        try {
          return await this.placeOnce(request, lpoNumber);
        } catch (error) {
          // Another call wrote the quotation's order first (its LPO number with it): it is that one.
          const duplicate = this.orders.duplicateOf(error);
          if (duplicate === 'quotation') continue;
          if (duplicate !== 'lpo') throw error;
          if (await this.orders.findByQuotation(request.quotationId)) continue;
          throw new ConflictException({ message: QUOTATION_MESSAGES.lpoTaken, code: 'LPO_TAKEN' });
        }
      }
      if (Date.now() > deadline)
        throw new ConflictException({
          message: 'This quotation is being made into an order at this moment: try again shortly',
          code: 'IN_PROGRESS',
        });
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }

  private async placeOnce(request: QuotationOrderRequest, lpoNumber: string): Promise<OrderRecord> {
    const run = quotationRun(request, lpoNumber);
    try {
      await runSaga(placementSteps(this.deps, quotationPlan(this.deps, request)), run);
    } catch (error) {
      throw await this.refusal(error, run);
    }
    const order = { ...run.order!, placement: 'placed' as const };
    this.events.emitInBackground('order.placed', {
      actor: request.actor,
      order,
      mail: 'confirmation',
      sms: { event: 'placed', sender: smsSender(request.buyerAccountId) },
    });
    return order;
  }

  /**
   * What a failed placement answers: a hold refused after the check (stock or a batch taken
   * meanwhile) read again as `SHORT` when the lines are short now.
   */
  private async refusal(error: unknown, run: PlacementRun): Promise<unknown> {
    const code = error instanceof HttpException ? codeOf(error) : undefined;
    if (!run.priced || !code || ['SHORT', 'CREDIT_LIMIT', 'VALIDATION_FAILED'].includes(code))
      return error;
    const short = await shortLines(run.priced.lines as QuotedLine[], this.catalog, this.batches);
    return short.length ? shortRefusal(short) : error;
  }
}

function codeOf(error: HttpException): string | undefined {
  const body = error.getResponse();
  return typeof body === 'object' ? (body as { code?: string }).code : undefined;
}

/** Refuses (400) a request the quotation could not have made; answers the LPO number trimmed. */
function checkRequest(request: QuotationOrderRequest): string {
  const bad = (message: string) => new BadRequestException({ message, code: 'VALIDATION_FAILED' });
  const lpo = request.lpoNumber?.trim() ?? '';
  // Invisible characters alone are no number.
  if (!lpoKeyOf(lpo)) throw bad(QUOTATION_MESSAGES.lpoRequired);
  if (lpo.length > QUOTATION_LIMITS.lpoNumber)
    throw bad(`The LPO number can have at most ${QUOTATION_LIMITS.lpoNumber} characters`);
  if (!request.lines.length) throw bad(QUOTATION_MESSAGES.linesRequired);
  if (request.lines.length > QUOTATION_LIMITS.lines) throw bad(QUOTATION_MESSAGES.tooManyLines);
  const whole = (n: number, min: number) => Number.isSafeInteger(n) && n >= min;
  for (const l of request.lines) {
    if (!whole(l.quantity, 1)) throw bad(QUOTATION_MESSAGES.lineQuantity);
    if (!whole(l.unitPrice, 0)) throw bad("A line's unit price must be whole shillings, 0 or more");
  }
  if (!whole(request.deliveryFee, 0)) throw bad('The delivery fee must be whole shillings');
  return lpo;
}
