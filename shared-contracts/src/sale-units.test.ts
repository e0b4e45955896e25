import {
  fromPricePerSeedling,
  nextTier,
  priceUnit,
  unitQuantityProblem,
  type SaleUnit,
} from './sale-units';
import { saleUnitsSchema } from './sale-units-form';

const tray: SaleUnit = {
  _id: 'tray',
  name: 'Tray of 50',
  seedlings: 50,
  price: 1500,
  offerPrice: 0,
  sku: '',
  minQuantity: 1,
  step: 1,
  tiers: [
    { minQuantity: 10, price: 1350 },
    { minQuantity: 50, price: 1200 },
  ],
};

describe('sale units', () => {
  it('prices a quantity at the tier it reaches, or the offer when lower', () => {
    expect(priceUnit(tray, 9)).toEqual({ unitPrice: 1500, tier: null, onOffer: false });
    expect(priceUnit(tray, 10).unitPrice).toBe(1350);
    expect(priceUnit(tray, 50)).toEqual({ unitPrice: 1200, tier: tray.tiers[1], onOffer: false });
    const offered = { ...tray, offerPrice: 1300 };
    expect(priceUnit(offered, 12)).toEqual({ unitPrice: 1300, tier: null, onOffer: true });
    expect(priceUnit(offered, 60).unitPrice).toBe(1200);
  });

  it('says how many more reach the next tier', () => {
    expect(nextTier(tray, 8)).toEqual({ tier: tray.tiers[0], more: 2 });
    expect(nextTier(tray, 50)).toBeNull();
  });

  it('refuses quantities under the minimum or off the step', () => {
    const singles = { ...tray, name: 'Single seedling', seedlings: 1, minQuantity: 10, step: 10 };
    expect(unitQuantityProblem(singles, 3)).toBe('Single seedling: at least 10 (you asked for 3)');
    expect(unitQuantityProblem(singles, 25)).toBe(
      'Single seedling: in steps of 10 from 10 (20 or 30, not 25)',
    );
    expect(unitQuantityProblem(singles, 30)).toBeUndefined();
  });

  it("gives a card's from-price per seedling, rounded up", () => {
    const single = { ...tray, _id: 's', seedlings: 1, price: 40, tiers: [] };
    expect(fromPricePerSeedling([single, tray])).toBe(24);
    expect(fromPricePerSeedling([single])).toBe(40);
    expect(fromPricePerSeedling([single, { ...tray, price: 1153, tiers: [] }])).toBe(24);
  });

  it('checks a form’s units as the API does', () => {
    const ok = saleUnitsSchema(40, 0).safeParse([
      { name: 'Single seedling', seedlings: 1, minQuantity: '10', step: '10' },
      { name: 'Tray of 50', seedlings: '50', price: '1500', tiers: tray.tiers },
    ]);
    expect(ok.success && ok.data[1]).toMatchObject({ price: 1500, seedlings: 50, step: 1 });
    const bad = saleUnitsSchema(40, 0).safeParse([
      { name: 'Single seedling', seedlings: 1 },
      { name: 'single seedling', seedlings: 0, price: 10, tiers: [{ minQuantity: 1, price: 5 }] },
    ]);
    expect(bad.success ? [] : bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['1.seedlings', 'A unit must hold at least 1 seedling'],
      ['1.tiers.0.minQuantity', "A tier starts at 2 or more (the unit's own price is for 1)"],
    ]);
  });
});
