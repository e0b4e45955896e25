import { productFormSchema } from './catalog-forms';
import { saleUnitsSchema } from './sale-units-form';
import {
  effectiveTaxType,
  readItemClassCodeInput,
  readTaxTypeInput,
  taxBreakdown,
  taxOf,
  taxTypeText,
  TAX_MESSAGES,
  type TaxLine,
} from './tax';

describe('tax breakdown of tax-inclusive prices', () => {
  it('takes the tax out of the price: amount × rate / (100 + rate), to the cent', () => {
    expect(taxOf(1160, 'B')).toBe(160);
    expect(taxOf(350, 'B')).toBe(48.28); // 48.2758…
    expect(taxOf(100, 'E')).toBe(7.41); // 7.4074…
    expect(taxOf(10500, 'B')).toBe(1448.28);
    for (const type of ['A', 'C', 'D'] as const) expect(taxOf(350, type)).toBe(0);
  });

  it('gives per type the amount, the rate, the tax and the taxable amount, and the totals', () => {
    const lines: TaxLine[] = [
      { amount: 1160, taxType: 'B' },
      { amount: 100, taxType: 'E' },
      { amount: 40, taxType: 'A' },
      { amount: 2000, taxType: 'B' },
    ];
    const breakdown = taxBreakdown(lines);
    expect(breakdown.types.map((t) => t.taxType)).toEqual(['A', 'B', 'E']);
    expect(breakdown.byType.B).toEqual({
      taxType: 'B',
      label: 'Standard rate 16 %',
      rate: 16,
      amount: 3160,
      tax: 435.86, // 3160 × 16 / 116 = 435.862…
      taxable: 2724.14,
    });
    expect(breakdown.byType.E).toMatchObject({ rate: 8, amount: 100, tax: 7.41, taxable: 92.59 });
    expect(breakdown.byType.A).toMatchObject({ rate: 0, amount: 40, tax: 0, taxable: 40 });
    // Types no line has are there, at zero (eTIMS sends all five).
    expect(breakdown.byType.C).toMatchObject({ amount: 0, tax: 0, taxable: 0 });
    expect(breakdown.byType.D).toMatchObject({ amount: 0, tax: 0, taxable: 0 });
    expect(breakdown.total).toEqual({ amount: 3300, tax: 443.27, taxable: 2856.73 });
    expect(breakdown.total.taxable + breakdown.total.tax).toBeCloseTo(breakdown.total.amount, 9);
  });

  it("works out a type's tax once on the sum of its lines, not a rounded cent per line", () => {
    const three = taxBreakdown([
      { amount: 350, taxType: 'B' },
      { amount: 350, taxType: 'B' },
      { amount: 350, taxType: 'B' },
    ]);
    // 1050 × 16 / 116 = 144.827…; three lines of 48.28 would make 144.84.
    expect(three.byType.B.tax).toBe(144.83);
    expect(three.byType.B.taxable).toBe(905.17);
  });

  it('keeps cents exact where floating point would not', () => {
    const breakdown = taxBreakdown([
      { amount: 0.1, taxType: 'B' },
      { amount: 0.2, taxType: 'B' },
    ]);
    expect(breakdown.byType.B.amount).toBe(0.3);
    expect(breakdown.byType.B.tax).toBe(0.04); // 0.30 × 16 / 116 = 0.0413…
    expect(breakdown.byType.B.taxable).toBe(0.26);
  });

  it('treats a credit note (negative amounts) as the mirror of the sale', () => {
    const sale = taxBreakdown([{ amount: 350, taxType: 'B' }]);
    const credit = taxBreakdown([{ amount: -350, taxType: 'B' }]);
    expect(credit.byType.B.tax).toBe(-sale.byType.B.tax);
    expect(credit.byType.B.taxable).toBe(-sale.byType.B.taxable);
    expect(taxBreakdown([]).total).toEqual({ amount: 0, taxable: 0, tax: 0 });
    expect(Object.is(taxBreakdown([]).total.tax, -0)).toBe(false);
  });

  it('refuses a line of no known type or no amount', () => {
    expect(() => taxBreakdown([{ amount: 10, taxType: 'F' as never }])).toThrow(/tax type/);
    expect(() => taxBreakdown([{ amount: Number.NaN, taxType: 'B' }])).toThrow(/amount/);
  });
});

describe('tax fields', () => {
  it('reads a tax type: left out, empty (the shop default), exactly a code, or not one', () => {
    expect(readTaxTypeInput(undefined)).toBeUndefined();
    expect(readTaxTypeInput(null)).toBeNull();
    expect(readTaxTypeInput('')).toBeNull();
    expect(readTaxTypeInput('B')).toBe('B');
    expect(readTaxTypeInput('E')).toBe('E');
    for (const wrong of ['F', 'b', ' B', '16', ' ', ['B'], 16])
      expect(readTaxTypeInput(wrong)).toBe(false);
  });

  it("reads an item classification code: 8 or 10 digits, KRA's form", () => {
    expect(readItemClassCodeInput('5059690800')).toBe('5059690800');
    expect(readItemClassCodeInput('14111400')).toBe('14111400');
    expect(readItemClassCodeInput('')).toBeNull();
    expect(readItemClassCodeInput(undefined)).toBeUndefined();
    for (const wrong of [
      '505969080',
      '50596908001',
      '50596908OO',
      '1411-1400',
      ' 14111400',
      5059690800,
    ])
      expect(readItemClassCodeInput(wrong)).toBe(false);
  });

  it("taxes a unit at its own type, else its product's, else the shop default", () => {
    expect(effectiveTaxType('E', 'B', 'A')).toBe('E');
    expect(effectiveTaxType(null, 'B', 'A')).toBe('B');
    expect(effectiveTaxType(undefined, null, 'A')).toBe('A');
    expect(effectiveTaxType(null, null, null)).toBeNull();
    expect(taxTypeText('B')).toBe('B · Standard rate 16 %');
  });
});

describe('tax in the product form', () => {
  const product = {
    productName: 'Kale',
    productDescription: 'Sukuma wiki',
    price: '350',
    productQuantity: '40',
    category: '665f1c2b9d3e4a0012345678',
    onOffer: 'false',
  };

  it('reads the tax type and code, empty ones as null, and names a wrong one', () => {
    const ok = productFormSchema.safeParse({ ...product, taxType: 'E', itemClassCode: '14111400' });
    expect(ok.success && ok.data).toMatchObject({ taxType: 'E', itemClassCode: '14111400' });
    const empty = productFormSchema.safeParse({ ...product, taxType: '', itemClassCode: '' });
    expect(empty.success && empty.data).toMatchObject({ taxType: null, itemClassCode: null });
    const bad = productFormSchema.safeParse({ ...product, taxType: 'F', itemClassCode: '123' });
    expect(bad.success ? [] : bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['taxType', TAX_MESSAGES.taxType],
      ['itemClassCode', TAX_MESSAGES.itemClassCode],
    ]);
  });

  it("reads a unit's own tax type: left out or empty is none", () => {
    const units = saleUnitsSchema(40, 0).safeParse([
      { name: 'Single seedling', seedlings: 1 },
      { name: 'Tray of 50', seedlings: 50, price: 1500, taxType: 'A' },
      { name: 'Tray of 104', seedlings: 104, price: 2800, taxType: '' },
    ]);
    expect(units.success && units.data.map((u) => u.taxType)).toEqual([null, 'A', null]);
    const bad = saleUnitsSchema(40, 0).safeParse([
      { name: 'Single seedling', seedlings: 1 },
      { name: 'Tray of 50', seedlings: 50, price: 1500, taxType: 'Z' },
    ]);
    expect(bad.success ? [] : bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['1.taxType', TAX_MESSAGES.taxType],
    ]);
  });
});
