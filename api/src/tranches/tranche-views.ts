import { trancheLabel, type ScanAbout } from '@spc/shared-contracts';
import type { OrderRecord } from '../orders/order.types';
import type { OrderTranchesData, TrancheDto } from './dto/tranche-view.dto';
import {
  lineStandings,
  linesOf,
  seedlingsOf,
  type OrderLineCopy,
  type OrderTranchesRecord,
  type TrancheRecord,
} from './tranche-record';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const lineRef = (l: OrderLineCopy) => ({
  productId: l.productId,
  productName: l.productName,
  unitId: l.unitId,
  unitName: l.unitName,
  seedlings: l.seedlings,
  batchId: l.batchId,
});

/** The signed notes attached to an order's tranches, by the tranche's label (`T2`). */
export type SignedNotes = ReadonlyMap<string, ScanAbout>;

/**
 * A tranche as the API answers it (no staff names: the trail has them), with what its attached
 * signed note is (`notes`: the order's, by label).
 */
export function trancheView(
  doc: Pick<OrderTranchesRecord, '_id' | 'purchaseNumber' | 'lpoNumber' | 'lines'>,
  t: TrancheRecord,
  notes: SignedNotes | undefined,
): TrancheDto {
  const sent = t.state === 'Dispatched' || t.state === 'Delivered';
  return {
    orderId: doc._id,
    purchaseNumber: doc.purchaseNumber,
    lpoNumber: doc.lpoNumber,
    number: t.number,
    label: trancheLabel(t.number),
    state: t.state,
    date: t.date,
    site: {
      name: t.site.name,
      county: t.site.county,
      subCounty: t.site.subCounty ?? '',
      contact: { name: t.site.contact.name, phone: t.site.contact.phone },
    },
    lines: t.lines.map((l) => ({
      ...lineRef(doc.lines[l.line]!),
      quantity: l.quantity,
      dispatched: l.dispatched,
      delivered: l.delivered,
      shortReason: l.shortReason,
    })),
    seedlings: seedlingsOf(doc, t, (l) => (sent ? (l.dispatched ?? l.quantity) : l.quantity)),
    plannedAt: iso(t.plannedAt)!,
    changedAt: iso(t.changedAt),
    dispatchedAt: iso(t.dispatchedAt),
    signedBy: t.signedBy,
    signedAt: iso(t.signedAt),
    recordedAt: iso(t.recordedAt),
    cancelledAt: iso(t.cancelledAt),
    signedNote: notes?.get(trancheLabel(t.number)) ?? null,
  };
}

/** An order's tranches and where each of its lines stands (an order with none: all to plan). */
export function orderTranchesView(
  order: OrderRecord,
  doc: OrderTranchesRecord | null,
  notes: SignedNotes | undefined,
): OrderTranchesData {
  const lines = doc?.lines ?? (order.quotation ? linesOf(order) : []);
  const tranches = doc?.tranches ?? [];
  const standings = lineStandings({ lines, tranches });
  const named = {
    _id: order._id,
    purchaseNumber: order.purchaseNumber,
    lpoNumber: order.quotation?.lpoNumber ?? '',
    lines,
  };
  return {
    orderId: order._id,
    purchaseNumber: order.purchaseNumber,
    lines: lines.map((l, i) => ({ ...lineRef(l), ...standings[i]! })),
    tranches: [...tranches]
      .sort((a, b) => a.number - b.number)
      .map((t) => trancheView(named, t, notes)),
  };
}
