import { ConflictException, UnauthorizedException } from '@nestjs/common';
import type { DeliveryMethod } from '@spc/shared-contracts';
import type { BatchHold } from '../batches/batch-hold';
import type { CatalogService } from '../catalog/catalog.service';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { LineHold } from '../common/order-hold';
import type { Principal } from '../common/principal';
import type { SagaStep } from '../common/saga';
import type { DeliveryService } from '../delivery/delivery.service';
import { productsUnavailable } from '../inventory/ready-stock-hold';
import type { StockMovementView } from '../inventory/stock-ledger.repository';
import type { UsersService } from '../users/users.service';
import type { DeliveryInfoDto } from './dto/order.dto';
import type { OrderHoldLimits, OrderSource } from './order-hold-limits';
import type { OrderHoldSlotsRepository } from './order-hold-slots.repository';
import type { OrderHolds } from './order-holds';
import { OrderOrganisationPrices } from './order-organisation-prices';
import { priceCartLines, type CartLine, type PricedLine } from './order-lines';
import type { OrderRecord } from './order.types';
import type { OrderRecoveryRepository } from './order-recovery.repository';
import type { OrderStock } from './order-stock';
import type { OrdersRepository } from './orders.repository';
import { newPurchaseNumber } from './purchase-number';
import type { OrderBooking } from './schemas/order.schema';

/** One placement as its steps fill it in: what was asked, then what each step made. */
export interface PlacementRun {
  actor: Principal | undefined;
  lines: CartLine[];
  /** What holds a line: ready stock, or the batch it names (`holdsOfCart`). */
  holdOf: (line: PricedLine) => LineHold;
  delivery: DeliveryInfoDto;
  method: DeliveryMethod;
  source: OrderSource;
  /** The buyer's KRA PIN the order keeps (issue 45); none when left out. */
  kraPin?: string | null;
  priced?: { lines: PricedLine[]; subtotal: number; quote: Quote; now: Date };
  /** The terms of lines held on a batch (their deposit), or null. */
  terms?: OrderBooking | null;
  /** What the plan adds to the order written (a quotation's, its buyer as `placedBy`). */
  orderFields?: Partial<NewOrder>;
  order?: OrderRecord;
  movements?: StockMovementView[];
}

type Quote = Awaited<ReturnType<DeliveryService['quote']>>;

/** What the placement's steps use. */
export interface PlacementDeps {
  orders: OrdersRepository;
  recovery: OrderRecoveryRepository;
  holdSlots: OrderHoldSlotsRepository;
  catalog: CatalogService;
  users: UsersService;
  holdLimits: OrderHoldLimits;
  deliveryZones: DeliveryService;
  stock: OrderStock;
  holds: OrderHolds;
  batchHold: BatchHold;
  /** How long a placement may take before the reconciler undoes it (its undo claims as long). */
  reconcileAfterMs: number;
}

/**
 * What differs between placements (a shopper's cart, an accepted quotation): how the lines are
 * priced, the terms their batch sets, what the order's insert holds besides its lines (the caps'
 * slots) and what it claims once written (an organisation's credit), each claim with its undo.
 */
export interface PlacementPlan {
  /** Fills `run.priced`: the lines as sold, the subtotal, the delivery's terms. */
  price: SagaStep<PlacementRun>;
  /** Fills `run.terms` (a booking's deposit) or checks what must be so before anything is written. */
  terms: SagaStep<PlacementRun>;
  /** Writes the order with `insert`, given the cap slots it holds (none: it holds no slots). */
  insert(
    run: PlacementRun,
    insert: (holdSlots?: string[]) => Promise<OrderRecord>,
  ): Promise<OrderRecord>;
  /** What the order claims once written, before its lines are held (undone in reverse). */
  claims: SagaStep<PlacementRun>[];
}

/**
 * A shopper's cart: each line at the product's price now, a booking's terms from its one batch,
 * the order holding a slot of each cap on anonymous unpaid orders (`OrderHoldLimits`).
 */
export function cartPlan(d: PlacementDeps, prices?: OrderOrganisationPrices): PlacementPlan {
  return {
    price: {
      /**
       * Each line at the product's price now (the catalogue in memory, no read per order), the
       * fee and date from the shop's zones; any figure the client sent is ignored.
       */
      name: 'price the lines',
      invoke: async (run) => {
        const products = await d.catalog.findForPricing(run.lines.map((l) => l._id));
        const byId = new Map(products.map((p) => [p._id, p]));
        const missing = run.lines.filter((l) => !byId.has(l._id));
        if (missing.length) throw productsUnavailable(missing.map((l) => l._id));
        const shopLines = priceCartLines(run.lines, byId);
        // A buyer of an approved organisation, signed in, pays its price list.
        const list = await prices?.listFor(run.actor);
        const lines = list ? OrderOrganisationPrices.apply(shopLines, list) : shopLines;
        // The unit limits count seedlings (a tray of 50 holds 50 of the stock).
        d.holdLimits.checkUnits(lines);
        const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
        const now = new Date();
        const { county, subCounty } = run.delivery;
        const quote = await d.deliveryZones.quote(run.method, county, subCounty, now);
        run.priced = { lines, subtotal, quote, now };
      },
    },
    terms: {
      /** Lines on a batch: the batch checked for them, and their deposit (nothing written). */
      name: 'the terms of a batch',
      invoke: async (run) => {
        const { lines, subtotal, quote } = run.priced!;
        const batch = lines.map(run.holdOf).find((h) => h.on === 'batch');
        // One batch an order (`bookedBatch` refused others): the order keeps one set of terms.
        run.terms =
          batch?.on === 'batch'
            ? await d.batchHold.terms(batch.batchId, lines, subtotal + quote.fee)
            : null;
      },
    },
    insert: (run, insert) => {
      const units = run.priced!.lines.reduce((sum, l) => sum + l.quantity * l.seedlings, 0);
      return d.holdLimits.hold(run.source, units, insert);
    },
    claims: [],
  };
}

/**
 * The placement saga's steps, in order, each undone when a later one fails (`runSaga`). A crash
 * between steps is the reconciler's: an order left `reserving` is undone, an unsettled one settled.
 */
export function placementSteps(
  d: PlacementDeps,
  plan: PlacementPlan = cartPlan(d),
): SagaStep<PlacementRun>[] {
  const order = (run: PlacementRun) => run.order!;
  return [
    plan.price,
    plan.terms,
    {
      /** The order written as `reserving`, holding what its plan says (the caps' slots). */
      name: 'insert the order as reserving',
      invoke: async (run) => {
        run.order = await plan.insert(run, (holdSlots) => insertReserving(d, run, holdSlots));
      },
      compensate: async (run) => {
        await d.orders.delete(order(run)._id);
      },
    },
    ...plan.claims,
    {
      /** Each line held by its own hold; a refused hold gives back what it took. */
      name: 'hold the lines',
      invoke: async (run) => {
        const lines = run.priced!.lines.map((l) => ({ ...l, hold: run.holdOf(l) }));
        run.movements = await d.holds.hold(order(run), lines, run.actor);
      },
      // Claimed as a reconciler claims an undo, so none undoes it beside us; one that has it
      // already finishes it.
      compensate: async (run) => {
        if (!(await d.recovery.claimUndo(order(run)._id, d.reconcileAfterMs))) return false;
        await d.stock.releaseAll(order(run));
      },
    },
    {
      /**
       * An account deleted while this was placed (the session still open a moment): undone as the
       * reconciler undoes an interrupted placement; the order never names a person erased.
       */
      name: 'the account is still open',
      invoke: async ({ actor }) => {
        if (actor?.role === 'customer' && (await d.users.isClosed(actor.id)))
          throw new UnauthorizedException('This account was deleted');
      },
    },
    {
      /**
       * Placed, then settled, in one write each with the other placements finishing now
       * (`OrderStock.placeAndSettle`). Undone first by the reconciler (it took longer than the
       * threshold): a line held after the reconciler released the others is given back here.
       */
      name: 'mark placed and settle',
      invoke: async (run) => {
        if (await d.stock.placeAndSettle(order(run), run.movements!)) return;
        await d.stock.releaseAll(order(run));
        throw new ConflictException(
          'Placing the order took too long and was undone. Please try again.',
        );
      },
    },
  ];
}

/** The order inserted with a fresh purchase number, holding these cap slots (if any). */
function insertReserving(
  d: PlacementDeps,
  run: PlacementRun,
  holdSlots: string[] | undefined,
): Promise<OrderRecord> {
  const { actor, delivery, source } = run;
  const { lines, subtotal, quote, now } = run.priced!;
  return insertWithFreshNumber(d, {
    placedBy: actor?.id ?? null,
    guestInfo: { ...delivery, subCounty: delivery.subCounty ?? '', ward: delivery.ward ?? '' },
    clientAddress: source.clientAddress ?? null,
    kraPin: run.kraPin ?? null,
    holdSlots,
    products: lines,
    subtotal,
    shippingFee: quote.fee,
    delivery: { method: quote.method, zoneName: quote.zoneName, days: quote.days },
    totalAmount: subtotal + quote.fee,
    orderDate: now,
    estimatedDeliveryDate: quote.estimatedDeliveryDate,
    ...(run.terms ? { booking: run.terms } : {}),
    ...run.orderFields,
  });
}

type NewOrder = Parameters<OrdersRepository['insert']>[0];

async function insertWithFreshNumber(
  d: PlacementDeps,
  order: Omit<NewOrder, 'purchaseNumber'>,
): Promise<OrderRecord> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await d.orders.insert({ ...order, purchaseNumber: newPurchaseNumber() } as NewOrder);
    } catch (error) {
      // A purchase number drawn twice is drawn again; a cap slot taken meanwhile, or a
      // quotation's order or LPO number already written, is the caller's.
      if (
        !isDuplicateKeyError(error) ||
        d.holdSlots.isHoldSlotCollision(error) ||
        d.orders.duplicateOf(error) ||
        attempt >= 4
      )
        throw error;
    }
  }
}
