import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import {
  TRANCHE_LIMITS as L,
  TRANCHE_MESSAGES as TM,
  TRANCHE_RULES,
  trancheLabel,
  type TrancheAction,
} from '@spc/shared-contracts';
import type { BatchRecord } from '../batches/batches.service';
import { addDays } from '../common/shop-clock';
import {
  lineWords,
  unitsTaken,
  type OrderLineCopy,
  type OrderTranchesRecord,
  type TrancheLineRecord,
  type TrancheRecord,
} from './tranche-record';

/** A line as a request names it: the order line's product, unit and source, and units. */
export interface LineAsked {
  productId: string;
  unitId: string;
  /** Null or left out: ready stock. */
  batchId?: string | null;
  quantity: number;
}

const invalid = (message: string, field?: string) =>
  new BadRequestException({
    message,
    code: 'VALIDATION_FAILED',
    ...(field ? { errors: [{ field, messages: [message] }] } : {}),
  });

/** The position of the order line a request names (ids in any case), or a 400 naming it. */
export function orderLineOf(
  lines: OrderLineCopy[],
  asked: Pick<LineAsked, 'productId' | 'unitId' | 'batchId'>,
  purchaseNumber: string,
  field: string,
): number {
  const same = (a: string | null | undefined, b: string | null | undefined) =>
    (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
  const i = lines.findIndex(
    (l) =>
      same(l.productId, asked.productId) &&
      same(l.unitId, asked.unitId) &&
      same(l.batchId, asked.batchId ?? null),
  );
  if (i < 0)
    throw invalid(
      `Order ${purchaseNumber} has no line of this product and unit from ${asked.batchId ? 'this batch' : 'ready stock'}`,
      field,
    );
  return i;
}

/**
 * The tranche's lines as stored, each naming its order line once (400 otherwise), and within
 * what the order's line holds beside its other live tranches (400 with the words otherwise).
 */
export function plannedLines(
  doc: Pick<OrderTranchesRecord, 'lines' | 'tranches' | 'purchaseNumber'>,
  asked: LineAsked[],
  self: number | null,
): TrancheLineRecord[] {
  if (!asked.length) throw invalid(TM.linesRequired, 'lines');
  if (asked.length > L.lines) throw invalid(TM.tooManyLines, 'lines');
  const seen = new Set<number>();
  return asked.map((a, i) => {
    const field = `lines.${i}`;
    if (!Number.isSafeInteger(a.quantity) || a.quantity < 1 || a.quantity > L.lineQuantity)
      throw invalid(TM.lineQuantity, `${field}.quantity`);
    const line = orderLineOf(doc.lines, a, doc.purchaseNumber, field);
    if (seen.has(line)) throw invalid(TM.duplicateLine, field);
    seen.add(line);
    const order = doc.lines[line]!;
    const others = doc.tranches
      .filter((t) => t.number !== self)
      .reduce((n, t) => n + unitsTaken(t, line), 0);
    const left = Math.max(0, order.quantity - others);
    if (a.quantity > left)
      throw invalid(
        `Order ${doc.purchaseNumber} holds ${lineWords(order)}; ${
          others
            ? `its other tranches take ${others.toLocaleString('en-US')}, so this tranche can take at most ${left.toLocaleString('en-US')}`
            : `a tranche can take at most ${order.quantity.toLocaleString('en-US')}`
        }`,
        `${field}.quantity`,
      );
    return { line, quantity: a.quantity, dispatched: null, delivered: null, shortReason: null };
  });
}

/** A tranche's day: from today to TRANCHE_LIMITS.daysAhead ahead (400 otherwise). */
export function checkDate(date: string, today: string): void {
  if (date < today) throw invalid(TM.datePast, 'date');
  if (date > addDays(today, L.daysAhead)) throw invalid(TM.dateTooFar, 'date');
}

/**
 * The batches of a tranche's lines allow its day: none failed (409), none dated before its batch
 * is ready while it still grows (400 with the ready day). A batch made ready early is ready.
 */
export function checkBatches(
  doc: Pick<OrderTranchesRecord, 'lines'>,
  lines: TrancheLineRecord[],
  date: string,
  batches: Map<string, BatchRecord>,
): void {
  lines.forEach((l, i) => {
    const batchId = doc.lines[l.line]!.batchId;
    if (!batchId) return;
    const batch = batches.get(batchId);
    const name = doc.lines[l.line]!.productName;
    if (!batch || batch.status === 'Failed')
      throw new ConflictException({
        message: `The batch of ${name} this line is held on failed: its seedlings cannot go in a tranche (place them again from stock or another batch)`,
        code: 'BATCH_FAILED',
      });
    if (batch.status !== 'Ready' && date < batch.readyOn)
      throw invalid(
        `The batch of ${name} is ready on ${batch.readyOn}: a tranche of its seedlings cannot be dated before then`,
        `lines.${i}`,
      );
  });
}

/** The tranche `number` of the order (404 in words otherwise). */
export function trancheOf(
  doc: Pick<OrderTranchesRecord, 'tranches' | 'purchaseNumber'> | null,
  purchaseNumber: string,
  number: number,
): TrancheRecord {
  const tranche = doc?.tranches.find((t) => t.number === number);
  if (!tranche)
    throw new NotFoundException({
      message: TM.noTranche(purchaseNumber, number),
      code: 'NOT_FOUND',
    });
  return tranche;
}

/** Refuses (409) a step its tranche's state does not take, in the rules table's words. */
export function assertTrancheStep(
  action: TrancheAction,
  tranche: TrancheRecord,
  purchaseNumber: string,
): void {
  const rule = TRANCHE_RULES[action];
  if (rule.from.includes(tranche.state)) return;
  const when = (d: Date | null) => (d ? ` on ${d.toISOString().slice(0, 10)}` : '');
  const state =
    tranche.state === 'Dispatched'
      ? `was dispatched${when(tranche.dispatchedAt)}`
      : tranche.state === 'Delivered'
        ? `was delivered (its signed note recorded${when(tranche.recordedAt)})`
        : tranche.state === 'Cancelled'
          ? `was cancelled${when(tranche.cancelledAt)}`
          : 'is only planned';
  throw new ConflictException({
    message: `Tranche ${trancheLabel(tranche.number)} of order ${purchaseNumber} ${state}: ${rule.refused}`,
    code: 'ILLEGAL_TRANSITION',
  });
}
