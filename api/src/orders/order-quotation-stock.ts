import type { QuotationShortLine } from '@spc/shared-contracts';
import type { BatchesService } from '../batches/batches.service';
import type { CatalogService } from '../catalog/catalog.service';
import type { PricedLine } from './order-lines';

/** A line of an accepted quotation, priced, naming its hold (`batchId`, null: ready stock). */
type QuotedLine = PricedLine & { batchId: string | null };

/**
 * The lines of an accepted quotation their source does not cover now (none: all are covered),
 * each with the growing batches of its product that have seedlings left. The sources are read as
 * they are (the products' stock, the batches left to book); lines on one source count together.
 * A batch that failed, is ready, is past its ready date or grows another product covers nothing.
 */
export async function shortLines(
  lines: QuotedLine[],
  catalog: CatalogService,
  batches: BatchesService,
): Promise<QuotationShortLine[]> {
  const sourceOf = (l: QuotedLine) => (l.batchId ? `batch:${l.batchId}` : `stock:${l.productId}`);
  const asked = new Map<string, number>();
  for (const l of lines)
    asked.set(sourceOf(l), (asked.get(sourceOf(l)) ?? 0) + l.quantity * l.seedlings);

  const stockIds = [...new Set(lines.filter((l) => !l.batchId).map((l) => l.productId))];
  const batchIds = [...new Set(lines.flatMap((l) => (l.batchId ? [l.batchId] : [])))];
  const products = stockIds.length ? await catalog.findForOrder(stockIds) : [];
  const named = batchIds.length ? await batches.findByIds(batchIds) : [];
  const today = batches.today();
  const available = new Map<string, number>();
  for (const p of products) available.set(`stock:${p._id}`, p.productQuantity);
  for (const b of named) {
    const growing = b.status !== 'Failed' && b.status !== 'Ready' && b.readyOn > today;
    const line = lines.find((l) => l.batchId === b._id);
    const usable = growing && line?.productId === b.productId;
    available.set(`batch:${b._id}`, usable ? b.available : 0);
  }

  const short = lines.filter((l) => (available.get(sourceOf(l)) ?? 0) < asked.get(sourceOf(l))!);
  if (!short.length) return [];
  const productIds = [...new Set(short.map((l) => l.productId))];
  const growing = await batches.bookable({ productIds });
  return short.map((l) => ({
    productId: l.productId,
    unitId: l.unitId,
    productName: l.productName,
    source: l.batchId ? { kind: 'batch', batchId: l.batchId } : { kind: 'stock' },
    quantity: l.quantity,
    seedlings: l.quantity * l.seedlings,
    available: available.get(sourceOf(l)) ?? 0,
    batches: growing
      .filter((b) => b.productId === l.productId && b._id !== l.batchId)
      .map((b) => ({ _id: b._id, readyOn: b.readyOn, available: b.available })),
  }));
}
