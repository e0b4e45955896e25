import { oscuSalesItems, oscuTotals, type OscuLine } from '../etims/oscu-tax';
import { shareOfLines } from '../etims/oscu-tax';
import { paymentTypeOf } from './order-etims';

const line = (itemCd: string, qty: number, unitPrice: number, taxTyCd: OscuLine['taxTyCd']) => ({
  itemCd,
  itemClsCd: '1015150000',
  itemNm: itemCd,
  pkgUnitCd: 'NT',
  qtyUnitCd: 'U',
  qty,
  unitPrice,
  taxTyCd,
});

describe('shareOfLines: a deposit, a balance or a part credit as each line’s share', () => {
  const lines: OscuLine[] = [
    line('KE2NTU0000001', 3, 333.33, 'B'),
    line('KE3NTU0000002', 1, 200, 'A'),
  ];
  const total = (ls: OscuLine[]) => oscuTotals(oscuSalesItems(ls)).totAmt;

  it('keeps every line whole for the whole amount', () => {
    expect(shareOfLines(lines, total(lines))).toEqual(lines);
  });

  it('adds up to the amount to the cent, each line keeping its item, quantity, price and tax type', () => {
    for (const amount of [0.01, 1, 359.99, 600, 1199.98]) {
      const shared = shareOfLines(lines, amount);
      expect(total(shared)).toBe(amount);
      shared.forEach((s, i) =>
        expect(s).toMatchObject({
          itemCd: lines[i]!.itemCd,
          qty: lines[i]!.qty,
          unitPrice: lines[i]!.unitPrice,
          taxTyCd: lines[i]!.taxTyCd,
        }),
      );
      for (const s of shared) expect(s.discount ?? 0).toBeGreaterThanOrEqual(0);
    }
  });

  it('never shares more than the lines are worth', () => {
    expect(total(shareOfLines(lines, 5000))).toBe(total(lines));
  });

  it('names M-Pesa 06 and cash 01', () => {
    expect(paymentTypeOf('Mpesa')).toBe('06');
    expect(paymentTypeOf('Cash')).toBe('01');
    expect(paymentTypeOf(null)).toBe('06');
  });
});
