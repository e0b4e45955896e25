import { trancheLabel, type TrancheState } from '@spc/shared-contracts';
import type { OrderRecord } from '../orders/order.types';

/** A tranche's site as stored. */
export interface SiteRecord {
  name: string;
  county: string;
  subCounty: string;
  contact: { name: string; phone: string };
}

export interface TrancheLineRecord {
  /** The order line's position in the order. */
  line: number;
  quantity: number;
  dispatched: number | null;
  delivered: number | null;
  shortReason: string | null;
}

export interface TrancheRecord {
  number: number;
  state: TrancheState;
  date: string;
  site: SiteRecord;
  lines: TrancheLineRecord[];
  plannedAt: Date;
  changedAt: Date | null;
  dispatchedAt: Date | null;
  signedBy: string | null;
  signedAt: Date | null;
  recordedAt: Date | null;
  cancelledAt: Date | null;
  remindedFor: string | null;
}

export interface OrderLineCopy {
  productId: string;
  productName: string;
  unitId: string;
  unitName: string;
  seedlings: number;
  batchId: string | null;
  quantity: number;
}

export type WorkKind = 'dispatched' | 'delivered';

export interface WorkRecord {
  what: WorkKind;
  number: number;
  at: Date;
  by: { id: string; fullName: string; role: string };
}

/** One order's tranches as the repository answers them (plain). */
export interface OrderTranchesRecord {
  /** The order's id. */
  _id: string;
  purchaseNumber: string;
  organisationId: string;
  lpoNumber: string;
  lines: OrderLineCopy[];
  tranches: TrancheRecord[];
  next: number;
  rev: number;
  work: WorkRecord[];
}

/** The order's lines as the tranches count them (a copy taken at the first tranche). */
export function linesOf(order: OrderRecord): OrderLineCopy[] {
  return order.products.map((l) => ({
    productId: l.product._id,
    productName: l.productName,
    unitId: l.unit._id,
    unitName: l.unit.name,
    seedlings: l.unit.seedlings,
    batchId: l.batchId ?? null,
    quantity: l.quantity,
  }));
}

/**
 * Units of an order line a tranche takes: what it plans while planned, what left while on its
 * way, what arrived once delivered (a short part came back: free to plan again), none cancelled.
 */
export function unitsTaken(tranche: TrancheRecord, line: number): number {
  const l = tranche.lines.find((x) => x.line === line);
  if (!l) return 0;
  switch (tranche.state) {
    case 'Planned':
      return l.quantity;
    case 'Dispatched':
      return l.dispatched ?? l.quantity;
    case 'Delivered':
      return l.delivered ?? 0;
    case 'Cancelled':
      return 0;
  }
}

/** Where each line of the order stands across its tranches, in units. */
export interface LineStanding {
  quantity: number;
  planned: number;
  onTheWay: number;
  delivered: number;
  /** Not in any live tranche yet: free to plan. */
  toPlan: number;
}

export function lineStandings(doc: Pick<OrderTranchesRecord, 'lines' | 'tranches'>) {
  return doc.lines.map((line, i): LineStanding => {
    const sum = (state: TrancheState) =>
      doc.tranches.filter((t) => t.state === state).reduce((n, t) => n + unitsTaken(t, i), 0);
    const planned = sum('Planned');
    const onTheWay = sum('Dispatched');
    const delivered = sum('Delivered');
    return {
      quantity: line.quantity,
      planned,
      onTheWay,
      delivered,
      toPlan: Math.max(0, line.quantity - planned - onTheWay - delivered),
    };
  });
}

/** Every unit of every line of the order is delivered. */
export const everyUnitDelivered = (doc: Pick<OrderTranchesRecord, 'lines' | 'tranches'>) =>
  lineStandings(doc).every((s) => s.delivered >= s.quantity);

/** A line of the order in words: "200 × Tray of 50 of Acacia from ready stock". */
export function lineWords(line: OrderLineCopy, units = line.quantity, readyOn?: string): string {
  const from = line.batchId
    ? `from the batch${readyOn ? ` ready on ${readyOn}` : ''}`
    : 'from ready stock';
  return `${units.toLocaleString('en-US')} × ${line.unitName} of ${line.productName} ${from}`;
}

/** "tranche T2 of order SPD…" */
export const trancheName = (doc: Pick<OrderTranchesRecord, 'purchaseNumber'>, number: number) =>
  `tranche ${trancheLabel(number)} of order ${doc.purchaseNumber}`;

/** The seedlings a tranche's lines hold, by `pick` (planned, dispatched or delivered units). */
export function seedlingsOf(
  doc: Pick<OrderTranchesRecord, 'lines'>,
  tranche: Pick<TrancheRecord, 'lines'>,
  pick: (l: TrancheLineRecord) => number = (l) => l.quantity,
): number {
  return tranche.lines.reduce((n, l) => n + pick(l) * (doc.lines[l.line]?.seedlings ?? 1), 0);
}
