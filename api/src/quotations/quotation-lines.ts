import { BadRequestException, Injectable } from '@nestjs/common';
import {
  BOOKING_MESSAGES as BM,
  organisationUnitPrice,
  priceUnit,
  QUOTATION_LIMITS as L,
  QUOTATION_MESSAGES as QM,
  unitQuantityProblem,
  type PriceList,
  type QuotationRequestLine,
  type SaleUnit,
} from '@spc/shared-contracts';
import { BatchesService, type BatchRecord } from '../batches/batches.service';
import { CatalogService } from '../catalog/catalog.service';
import type { OrderableProduct } from '../catalog/catalog.types';
import type { LineRecord } from './quotation-record';

/** A line as asked, with what it names. */
interface Resolved {
  line: QuotationRequestLine;
  product: OrderableProduct;
  unit: SaleUnit;
  batch: BatchRecord | null;
}

type FieldError = { field: string; messages: string[] };

/**
 * The lines of a request or a draft, checked against the catalogue and the batches: each names a
 * product and one of its units, a quantity the unit sells by (its minimum and step) of at most
 * `lineSeedlings` seedlings, and, when it comes from a batch, a batch of that product still growing;
 * no product, unit and source twice. Every line wrong is named (400, `errors`), nothing changes.
 */
@Injectable()
export class QuotationLines {
  constructor(
    private readonly catalog: CatalogService,
    private readonly batches: BatchesService,
  ) {}

  async resolve(lines: QuotationRequestLine[], today: string): Promise<Resolved[]> {
    const ids = (xs: (string | null | undefined)[]) => [
      ...new Set(xs.filter((x): x is string => !!x).map((x) => x.toLowerCase())),
    ];
    const [products, batches] = await Promise.all([
      this.catalog.findForOrder(ids(lines.map((l) => l.productId))),
      this.batches.findByIds(ids(lines.map((l) => l.batchId))),
    ]);
    const productById = new Map(products.map((p) => [p._id.toLowerCase(), p]));
    const batchById = new Map(batches.map((b) => [b._id.toLowerCase(), b]));
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    const resolved: Resolved[] = [];
    lines.forEach((line, i) => {
      const fail = (message: string) => errors.push({ field: `lines.${i}`, messages: [message] });
      const product = productById.get(line.productId.toLowerCase());
      if (!product) return fail(`No product with the id ${line.productId} is for sale`);
      const unit = product.units.find((u) => u._id.toLowerCase() === line.unitId.toLowerCase());
      if (!unit) return fail(`This unit is not one of ${product.productName}'s units`);
      const key = `${product._id}:${unit._id}:${line.batchId?.toLowerCase() ?? 'stock'}`;
      if (seen.has(key)) return fail(QM.duplicateLine);
      seen.add(key);
      if (line.quantity * unit.seedlings > L.lineSeedlings) return fail(QM.lineQuantity);
      const problem = unitQuantityProblem(unit, line.quantity);
      if (problem) return fail(`${product.productName}, ${problem}`);
      let batch: BatchRecord | null = null;
      if (line.batchId) {
        batch = batchById.get(line.batchId.toLowerCase()) ?? null;
        if (!batch) return fail(BM.batchGone);
        if (batch.productId.toLowerCase() !== product._id.toLowerCase())
          return fail(BM.batchOfAnotherProduct);
        if (batch.status === 'Failed') return fail(BM.batchFailed);
        if (batch.status === 'Ready' || batch.readyOn <= today) return fail(BM.batchReady);
      }
      resolved.push({ line, product, unit, batch });
    });
    if (errors.length)
      throw new BadRequestException({
        message: errors[0]!.messages[0],
        code: 'VALIDATION_FAILED',
        errors,
      });
    return resolved;
  }

  /**
   * Priced lines: the shop's price for the quantity (its tier or offer), and what the organisation
   * pays: the price staff give, else its price list's on the shop's price.
   */
  async price(
    lines: (QuotationRequestLine & { unitPrice?: number })[],
    priceList: PriceList,
    today: string,
  ): Promise<LineRecord[]> {
    const resolved = await this.resolve(lines, today);
    return resolved.map(({ line, product, unit, batch }) => {
      const shopUnitPrice = priceUnit(unit, line.quantity).unitPrice;
      const given = (line as { unitPrice?: number }).unitPrice;
      return {
        productId: product._id,
        unitId: unit._id,
        productName: product.productName,
        unitName: unit.name,
        seedlings: unit.seedlings,
        quantity: line.quantity,
        batchId: batch?._id ?? null,
        readyDate: batch?.readyOn ?? null,
        shopUnitPrice,
        unitPrice: given ?? organisationUnitPrice(priceList, product._id, unit._id, shopUnitPrice),
      };
    });
  }
}
