import { startOfShopDay } from '../common/shop-clock';
import { buildStatement, daysBetween, type StatementInvoice } from './invoice-statements-build';

const at = (day: string, hour = 10) => new Date(startOfShopDay(day).getTime() + hour * 3600_000);
const parties = {
  organisation: { id: 'o', name: 'Kenya Forest Service', kraPin: 'P051234567X' },
  shop: { name: 'Seedling Propagation Centre', kraPin: '' },
};

function inv(o: Partial<StatementInvoice> & Pick<StatementInvoice, 'number' | 'total'>) {
  return {
    lpoNumber: 'LPO-1',
    tranche: null,
    issuedAt: at('2026-01-05'),
    dueDate: '2026-02-04',
    excess: 0,
    settlements: [],
    ...o,
  } as StatementInvoice;
}
const pay = (
  kind: StatementInvoice['settlements'][number]['kind'],
  amount: number,
  day: string,
  reference = 'R1',
  hour = 10,
) => ({ kind, amount, reference, number: null, reason: null, at: at(day, hour) });

describe('buildStatement', () => {
  it('counts days across months and years', () => {
    expect(daysBetween('2026-02-27', '2026-03-01')).toBe(2);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2026-03-01', '2026-02-27')).toBe(-2);
  });

  it('puts every ageing bucket at its edges: 0, 1, 30, 31, 60, 61, 90, 91 days', () => {
    const due = '2026-01-01';
    const cases: [string, string][] = [
      ['2026-01-01', 'current'],
      ['2026-01-02', 'days30'],
      ['2026-01-31', 'days30'],
      ['2026-02-01', 'days60'],
      ['2026-03-02', 'days60'],
      ['2026-03-03', 'days90'],
      ['2026-04-01', 'days90'],
      ['2026-04-02', 'over90'],
    ];
    for (const [to, bucket] of cases) {
      const s = buildStatement(
        parties,
        [inv({ number: 'INV-000001', total: 100, issuedAt: at('2025-12-01'), dueDate: due })],
        '2025-12-01',
        to,
      );
      expect({ to, ageing: s.ageing[bucket as keyof typeof s.ageing] }).toEqual({
        to,
        ageing: 100,
      });
      expect(s.overdue).toBe(bucket === 'current' ? 0 : 100);
    }
  });

  it('keeps the closing balance equal to the ageing, a settled invoice ageing nothing', () => {
    const s = buildStatement(
      parties,
      [
        inv({
          number: 'INV-000001',
          total: 1000,
          settlements: [
            pay('withholding', 20, '2026-01-20', 'WHT-9'),
            pay('bank', 980, '2026-01-21'),
          ],
        }),
        inv({ number: 'INV-000002', total: 500, issuedAt: at('2026-01-10') }),
      ],
      '2026-01-01',
      '2026-03-01',
    );
    expect(s.lines.map((l) => [l.kind, l.balance])).toEqual([
      ['invoice', 1000],
      ['invoice', 1500],
      ['withholding', 1480],
      ['bank', 500],
    ]);
    expect(s.lines[2]!.description).toBe('Tax withheld, certificate WHT-9 for INV-000001');
    expect(s.closingBalance).toBe(500);
    expect(Object.values(s.ageing).reduce((n, x) => n + x, 0)).toBe(500);
  });
});
