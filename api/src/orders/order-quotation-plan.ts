import { BadRequestException, ConflictException } from '@nestjs/common';
import { QUOTATION_MESSAGES } from '@spc/shared-contracts';
import type { BatchesService } from '../batches/batches.service';
import type { LineHold } from '../common/order-hold';
import { productsUnavailable } from '../inventory/ready-stock-hold';
import type { OrderCreditLimit } from './order-credit-limit';
import { READY_STOCK } from './order-holds';
import type { PricedLine } from './order-lines';
import type { PlacementDeps, PlacementPlan, PlacementRun } from './order-placement-steps';
import { shortLines } from './order-quotation-stock';
import type { QuotationOrderRequest } from './order-from-quotation.service';

/** What an accepted quotation's placement uses besides the placement's own. */
export interface QuotationPlanDeps extends PlacementDeps {
  batches: BatchesService;
  creditLimit: OrderCreditLimit;
}

/** A line as the quotation sold it, naming its hold. */
export type QuotedLine = PricedLine & { batchId: string | null };

/** What holds a quoted line: the batch it names, or ready stock. */
export const holdOfQuotedLine = (line: Pick<PricedLine, 'batchId'>): LineHold =>
  line.batchId ? { on: 'batch', batchId: line.batchId } : READY_STOCK;

/**
 * An LPO number in its one spelling: the same number however it is cased or spaced, pasted with
 * invisible characters (zero-width spaces, soft hyphens: Unicode's format characters) or typed in
 * full-width letters and digits (NFKC).
 */
export const lpoKeyOf = (lpo: string) =>
  lpo
    .normalize('NFKC')
    .replace(/[\s\p{Cf}]+/gu, '')
    .toUpperCase();

/** The placement of an accepted quotation as its steps start it (`lpoNumber` trimmed). */
export function quotationRun(request: QuotationOrderRequest, lpoNumber: string): PlacementRun {
  const { delivery } = request;
  return {
    actor: request.actor,
    lines: [],
    holdOf: holdOfQuotedLine,
    delivery: { ...delivery, subCounty: delivery.subCounty ?? undefined },
    method: 'delivery',
    source: { phoneNumber: delivery.phoneNumber, email: delivery.email },
    orderFields: {
      placedBy: request.buyerAccountId,
      quotationId: request.quotationId,
      organisationId: request.organisationId,
      lpoNumber,
      lpoKey: lpoKeyOf(lpoNumber),
      // Only an order on account carries the field: every other order reads as not on account.
      ...(request.onAccount ? { onAccount: true } : {}),
    },
  };
}

/** The 409 `SHORT`: the lines their source no longer covers, with what could grow them. */
export function shortRefusal(lines: Awaited<ReturnType<typeof shortLines>>) {
  return new ConflictException({ message: QUOTATION_MESSAGES.short, code: 'SHORT', lines });
}

/**
 * An accepted quotation's placement (the placement saga's steps, `placementSteps`, with this
 * plan): each line at the version's agreed price and held by its own hold (ready stock, or the
 * batch it names: no booking, no deposit); stock and batches checked before anything is written
 * (409 `SHORT`); none of the caps on anonymous unpaid orders (it holds no cap slots); the
 * organisation's credit claimed once the order is written, given back when a later step fails.
 */
export function quotationPlan(d: QuotationPlanDeps, request: QuotationOrderRequest): PlacementPlan {
  const organisationId = request.organisationId;
  return {
    price: {
      /** At the version's prices (not the shop's today); names, units and images as sold now. */
      name: 'price the lines as agreed',
      invoke: async (run) => {
        const ids = request.lines.map((l) => l.productId.toLowerCase());
        const products = await d.catalog.findForPricing(ids);
        const byId = new Map(products.map((p) => [p._id, p]));
        const missing = ids.filter((id) => !byId.has(id));
        if (missing.length) throw productsUnavailable(missing);
        const lines: QuotedLine[] = request.lines.map((l) => {
          const product = byId.get(l.productId.toLowerCase())!;
          const unit = product.units.find((u) => u._id.toLowerCase() === l.unitId.toLowerCase());
          if (!unit)
            throw new BadRequestException({
              message: `This unit is not one of ${product.productName}'s units (it may have been removed): revise the quotation`,
              code: 'VALIDATION_FAILED',
            });
          return {
            productId: product._id,
            productName: product.productName,
            productImage: product.productImage,
            unitId: unit._id,
            unitName: unit.name,
            seedlings: unit.seedlings,
            tier: null,
            unitPrice: l.unitPrice,
            quantity: l.quantity,
            lineTotal: l.unitPrice * l.quantity,
            batchId: l.batchId ? l.batchId.toLowerCase() : null,
          };
        });
        const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
        const now = new Date();
        const { county, subCounty } = run.delivery;
        // The zone's name, days and date; the fee is the version's.
        const zone = await d.deliveryZones.quote('delivery', county, subCounty, now);
        run.priced = { lines, subtotal, quote: { ...zone, fee: request.deliveryFee }, now };
      },
    },
    terms: {
      /** Stock and batches cover every line, and the credit left the total (nothing written). */
      name: 'the lines covered and the credit left',
      invoke: async (run) => {
        const { lines, subtotal, quote } = run.priced!;
        const short = await shortLines(lines as QuotedLine[], d.catalog, d.batches);
        if (short.length) throw shortRefusal(short);
        await d.creditLimit.check(organisationId, subtotal + quote.fee);
        run.terms = null;
      },
    },
    // An approved organisation's accepted quotation is not an anonymous unpaid hold.
    insert: (_run, insert) => insert(),
    claims: [
      {
        /** Its total on the organisation's credit, atomically within the limit (409 otherwise). */
        name: "claim the organisation's credit",
        invoke: (run: PlacementRun) => d.creditLimit.claim(run.order!, organisationId),
        compensate: (run: PlacementRun) => d.creditLimit.release(run.order!),
      },
    ],
  };
}
