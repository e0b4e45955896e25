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
  priced?: { lines: PricedLine[]; subtotal: number; quote: Quote; now: Date };
  /** The terms of lines held on a batch (their deposit), or null. */
  terms?: OrderBooking | null;
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
 * The placement saga's steps, in order, each undone when a later one fails (`runSaga`). A crash
 * between steps is the reconciler's: an order left `reserving` is undone, an unsettled one settled.
 */
export function placementSteps(d: PlacementDeps): SagaStep<PlacementRun>[] {
  const order = (run: PlacementRun) => run.order!;
  return [
    {
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
        const lines = priceCartLines(run.lines, byId);
        // The unit limits count seedlings (a tray of 50 holds 50 of the stock).
        d.holdLimits.checkUnits(lines);
        const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
        const now = new Date();
        const { county, subCounty } = run.delivery;
        const quote = await d.deliveryZones.quote(run.method, county, subCounty, now);
        run.priced = { lines, subtotal, quote, now };
      },
    },
    {
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
    {
      /** The order written as `reserving`, holding its slots of the open unpaid order caps. */
      name: 'insert the order as reserving',
      invoke: async (run) => {
        run.order = await insertReserving(d, run);
      },
      compensate: async (run) => {
        await d.orders.delete(order(run)._id);
      },
    },
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

/** The order inserted with a fresh purchase number, refused (409) when a cap is full. */
function insertReserving(d: PlacementDeps, run: PlacementRun): Promise<OrderRecord> {
  const { actor, delivery, source } = run;
  const { lines, subtotal, quote, now } = run.priced!;
  const units = lines.reduce((sum, l) => sum + l.quantity * l.seedlings, 0);
  return d.holdLimits.hold(source, units, (holdSlots) =>
    insertWithFreshNumber(d, {
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
      ...(run.terms ? { booking: run.terms } : {}),
    }),
  );
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
      // A purchase number drawn twice is drawn again; a cap slot taken meanwhile is the caller's.
      if (!isDuplicateKeyError(error) || d.holdSlots.isHoldSlotCollision(error) || attempt >= 4)
        throw error;
    }
  }
}
