import type { CatalogService } from '../catalog/catalog.service';
import { productsUnavailable } from '../inventory/ready-stock-hold';
import { priceCartLines, type CartLine, type PricedLine } from './order-lines';
import type { PlacementDeps, PlacementPlan } from './order-placement-steps';

/** A walk-in buyer's name on a gate sale's order (their phone, if given, is its phone). */
export const GATE_BUYER = 'Walk-in buyer';

/** What a gate sale writes besides its lines: the till's record of it (issue 46). */
export interface GateSaleFields {
  channel: 'gate';
  till: {
    sessionId: string;
    sellerId: string;
    sellerName: string;
    payments: {
      method: 'cash' | 'mpesa-express' | 'mpesa-code';
      amount: number;
      given: number | null;
      change: number | null;
      code: string | null;
      state: 'received' | 'waiting' | 'failed';
      entry: null;
    }[];
    change: number;
    voided: null;
    refunds: [];
    refunded: 0;
    offline: {
      soldAt: Date;
      changed: { productId: string; unitId: string; name: string; till: number; now: number }[];
    } | null;
    attention: null;
    short: false;
    /** Its Idempotency-Key as stored (`<clerk>:<key>`), written by `placeAtGate`. */
    key?: string;
  };
  /** An offline sale's prices (issue 47), by `productId:unitId`: the till's, which the buyer paid. */
  offlinePrices?: Map<string, number>;
}

/**
 * Lines priced as the shop prices them (the unit named, its tier; 400 in the unit rule's words
 * off its minimum or step), without the shopper's caps: the till's preview of a sale's total.
 */
export async function priceGateLines(
  catalog: CatalogService,
  lines: CartLine[],
): Promise<{ lines: PricedLine[]; total: number }> {
  const products = await catalog.findForPricing(lines.map((l) => l._id));
  const byId = new Map(products.map((p) => [p._id, p]));
  const missing = lines.filter((l) => !byId.has(l._id));
  if (missing.length) throw productsUnavailable(missing.map((l) => l._id));
  const priced = priceCartLines(lines, byId);
  return { lines: priced, total: priced.reduce((sum, l) => sum + l.lineTotal, 0) };
}

/**
 * A sale the clerk hands over at the gate: the shop's prices and the unit's minimum and step, but
 * none of the rules for unknown buyers online (the caps on lines and orders, their slots, the
 * delivery quote); collected now, at no fee; the till's record written with the order.
 */
export function gatePlan(d: PlacementDeps, fields: GateSaleFields): PlacementPlan {
  return {
    price: {
      name: 'price the lines',
      invoke: async (run) => {
        const { offlinePrices, ...orderFields } = fields;
        const priced = await priceGateLines(d.catalog, run.lines);
        const lines = offlinePrices ? atTillPrices(priced.lines, offlinePrices) : priced.lines;
        const total = lines.reduce((sum, l) => sum + l.lineTotal, 0);
        // An offline sale is dated when the till sold it (its day's reports count it there).
        const now = fields.till.offline?.soldAt ?? new Date();
        const quote = {
          method: 'collection' as const,
          zoneName: 'Gate',
          days: 0,
          fee: 0,
          estimatedDeliveryDate: now,
        };
        run.priced = { lines, subtotal: total, quote, now } as typeof run.priced;
        // Nobody's account: the clerk who sold it is the till's `sellerId`, not its buyer.
        run.orderFields = { ...orderFields, placedBy: null };
      },
    },
    terms: {
      name: 'no terms at the gate',
      invoke: (run) => {
        run.terms = null;
      },
    },
    insert: (_run, insert) => insert(),
    claims: [],
  };
}

/** The lines at the prices an offline till charged (checked before: one per line, within limits). */
export function atTillPrices(lines: PricedLine[], prices: Map<string, number>): PricedLine[] {
  return lines.map((l) => {
    const unitPrice = prices.get(`${l.productId}:${l.unitId}`);
    if (unitPrice === undefined || unitPrice === l.unitPrice) return l;
    return { ...l, unitPrice, lineTotal: unitPrice * l.quantity };
  });
}
