import { oscuSalesItems, oscuTotals, taxInsideCents } from './oscu-tax';

const line = {
  itemCd: 'KE2NTU0000001',
  itemClsCd: '1015150000',
  itemNm: 'Tomato seedlings, tray of 50',
  pkgUnitCd: 'NT',
  qtyUnitCd: 'U',
};

describe('OSCU tax breakdown', () => {
  it('finds the tax inside a tax-inclusive amount, to the cent', () => {
    expect(taxInsideCents(11_600, 'B')).toBe(1_600);
    expect(taxInsideCents(10_000, 'B')).toBe(1_379);
    expect(taxInsideCents(10_800, 'E')).toBe(800);
    for (const type of ['A', 'C', 'D'] as const) expect(taxInsideCents(10_000, type)).toBe(0);
  });

  it('keeps prices as shown and gives each tax type its share', () => {
    const items = oscuSalesItems([
      { ...line, qty: 3, unitPrice: 450, taxTyCd: 'B' },
      { ...line, itemCd: 'KE2NTU0000002', qty: 1, unitPrice: 1200, discount: 100, taxTyCd: 'A' },
      { ...line, itemCd: 'KE2NTU0000003', qty: 2, unitPrice: 99.5, taxTyCd: 'E' },
    ]);
    expect(items[0]).toMatchObject({
      itemSeq: 1,
      prc: 450,
      splyAmt: 1350,
      dcAmt: 0,
      taxblAmt: 1350,
      taxAmt: 186.21,
      totAmt: 1350,
    });
    expect(items[1]).toMatchObject({ itemSeq: 2, splyAmt: 1200, dcAmt: 100, dcRt: 8.33 });
    expect(items[1]).toMatchObject({ taxblAmt: 1100, taxAmt: 0, totAmt: 1100 });
    expect(items[2]).toMatchObject({ taxblAmt: 199, taxAmt: 14.74 });

    expect(oscuTotals(items)).toEqual({
      totItemCnt: 3,
      taxblAmtA: 1100,
      taxblAmtB: 1350,
      taxblAmtC: 0,
      taxblAmtD: 0,
      taxblAmtE: 199,
      taxRtA: 0,
      taxRtB: 16,
      taxRtC: 0,
      taxRtD: 0,
      taxRtE: 8,
      taxAmtA: 0,
      taxAmtB: 186.21,
      taxAmtC: 0,
      taxAmtD: 0,
      taxAmtE: 14.74,
      totTaxblAmt: 2649,
      totTaxAmt: 200.95,
      totAmt: 2649,
    });
  });
});
