import type { BatchRecord } from '../batches/batches.service';
import { lineStandings, type OrderTranchesRecord, type TrancheRecord } from './tranche-record';
import { checkBatches, checkDate, plannedLines } from './tranche-rules';

const P = '665f1c2b9d3e4a0012345678';
const TRAY = '665f1c2b9d3e4a0012345679';
const SINGLE = '665f1c2b9d3e4a001234567a';
const BATCH = '665f1c2b9d3e4a001234567b';

const lines: OrderTranchesRecord['lines'] = [
  {
    productId: P,
    productName: 'Acacia',
    unitId: TRAY,
    unitName: 'Tray of 50',
    seedlings: 50,
    batchId: null,
    quantity: 200,
  },
  {
    productId: P,
    productName: 'Acacia',
    unitId: SINGLE,
    unitName: 'Single seedling',
    seedlings: 1,
    batchId: BATCH,
    quantity: 12_000,
  },
];

const tranche = (
  number: number,
  state: TrancheRecord['state'],
  line: number,
  units: { quantity: number; dispatched?: number; delivered?: number },
): TrancheRecord => ({
  number,
  state,
  date: '2026-10-15',
  site: {
    name: 'Site',
    county: 'Kiambu',
    subCounty: '',
    contact: { name: 'P', phone: '+254711000111' },
  },
  lines: [
    {
      line,
      quantity: units.quantity,
      dispatched: units.dispatched ?? null,
      delivered: units.delivered ?? null,
      shortReason: null,
    },
  ],
  plannedAt: new Date(),
  changedAt: null,
  dispatchedAt: null,
  signedBy: null,
  signedAt: null,
  recordedAt: null,
  cancelledAt: null,
  remindedFor: null,
});

const order = (tranches: TrancheRecord[]) => ({ purchaseNumber: 'SPDX', lines, tranches });

describe("a tranche's plan", () => {
  it('counts what each tranche takes: planned, sent while on its way, what arrived, nothing cancelled', () => {
    const doc = order([
      tranche(1, 'Planned', 0, { quantity: 50 }),
      tranche(2, 'Dispatched', 0, { quantity: 40, dispatched: 40 }),
      tranche(3, 'Delivered', 0, { quantity: 60, dispatched: 60, delivered: 55 }),
      tranche(4, 'Cancelled', 0, { quantity: 45 }),
    ]);
    expect(lineStandings(doc)[0]).toEqual({
      quantity: 200,
      planned: 50,
      onTheWay: 40,
      delivered: 55,
      toPlan: 55,
    });
    // What is left is exactly what a new tranche may take (ids in any case name the line).
    expect(
      plannedLines(doc, [{ productId: P.toUpperCase(), unitId: TRAY, quantity: 55 }], null),
    ).toEqual([{ line: 0, quantity: 55, dispatched: null, delivered: null, shortReason: null }]);
    expect(() => plannedLines(doc, [{ productId: P, unitId: TRAY, quantity: 56 }], null)).toThrow(
      'its other tranches take 145, so this tranche can take at most 55',
    );
    // A tranche changed is counted without its own old units.
    expect(plannedLines(doc, [{ productId: P, unitId: TRAY, quantity: 105 }], 1)).toHaveLength(1);
  });

  it('refuses a line the order does not have, twice the same line, and odd quantities', () => {
    const doc = order([]);
    const refused = (asked: Parameters<typeof plannedLines>[1]) =>
      expect(() => plannedLines(doc, asked, null)).toThrow();
    refused([]);
    refused([{ productId: P, unitId: TRAY, batchId: BATCH, quantity: 1 }]);
    refused([{ productId: P, unitId: SINGLE, quantity: 1 }]);
    refused([
      { productId: P, unitId: TRAY, quantity: 1 },
      { productId: P, unitId: TRAY.toUpperCase(), quantity: 1 },
    ]);
    for (const quantity of [0, -1, 1.5, Number.NaN, 500_001, Number.MAX_SAFE_INTEGER + 2])
      refused([{ productId: P, unitId: TRAY, quantity }]);
  });

  it("dates a tranche from today, and a growing batch's lines from its ready day", () => {
    expect(() => checkDate('2026-10-14', '2026-10-15')).toThrow('before today');
    expect(() => checkDate('2027-10-17', '2026-10-15')).toThrow('at most 366 days ahead');
    expect(() => checkDate('2026-10-15', '2026-10-15')).not.toThrow();
    const batch = (over: Partial<BatchRecord>) =>
      new Map([
        [BATCH, { _id: BATCH, status: 'Growing', readyOn: '2026-12-01', ...over } as BatchRecord],
      ]);
    const mine = [{ line: 1, quantity: 1, dispatched: null, delivered: null, shortReason: null }];
    expect(() => checkBatches(order([]), mine, '2026-11-30', batch({}))).toThrow(
      'is ready on 2026-12-01',
    );
    expect(() => checkBatches(order([]), mine, '2026-12-01', batch({}))).not.toThrow();
    expect(() =>
      checkBatches(order([]), mine, '2026-11-30', batch({ status: 'Ready' })),
    ).not.toThrow();
    expect(() => checkBatches(order([]), mine, '2026-12-05', batch({ status: 'Failed' }))).toThrow(
      'failed',
    );
  });
});
