import {
  canActOnOrganisation,
  KRA_PIN_MESSAGE,
  organisationUnitPrice,
  type PriceList,
} from './organisations';
import { kraPinSchema, priceListSchema } from './organisation-forms';

describe('KRA PIN', () => {
  it.each([
    ['P051234567X', 'P051234567X'],
    ['A123456789Z', 'A123456789Z'],
    ['  p051234567x ', 'P051234567X'],
  ])('takes %p as %p', (typed, stored) => {
    expect(kraPinSchema.parse(typed)).toBe(stored);
  });

  it.each([
    'P051 234567X',
    'P05123456X',
    'P0512345678X',
    'B051234567X',
    'P0512345678',
    '',
    'Р051234567X',
  ])('refuses %p with the rule in words', (typed) => {
    const parsed = kraPinSchema.safeParse(typed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(KRA_PIN_MESSAGE);
  });
});

describe('organisation status table', () => {
  it('lets the shop approve what waits, is suspended or declined; suspend what is approved; decline what waits', () => {
    expect(canActOnOrganisation('approve', 'pending', 'staff')).toBe(true);
    expect(canActOnOrganisation('approve', 'approved', 'staff')).toBe(false);
    expect(canActOnOrganisation('suspend', 'approved', 'admin')).toBe(true);
    expect(canActOnOrganisation('suspend', 'pending', 'admin')).toBe(false);
    expect(canActOnOrganisation('decline', 'approved', 'staff')).toBe(false);
    expect(canActOnOrganisation('approve', 'pending', 'customer')).toBe(false);
  });
});

describe("an organisation's price", () => {
  const list: PriceList = {
    discountPercent: 15,
    prices: [{ productId: 'aa'.repeat(12), unitId: 'bb'.repeat(12), price: 1100 }],
  };

  it('is its own price for a product and unit it names, whatever the shop charges', () => {
    expect(organisationUnitPrice(list, 'AA'.repeat(12), 'bb'.repeat(12), 1500)).toBe(1100);
  });

  it("is the shop's price less the discount elsewhere, to the nearest shilling", () => {
    expect(organisationUnitPrice(list, 'aa'.repeat(12), 'cc'.repeat(12), 1350)).toBe(1148); // 1147.5
    expect(organisationUnitPrice(list, 'dd'.repeat(12), 'dd'.repeat(12), 33)).toBe(28); // 28.05
    expect(organisationUnitPrice({ discountPercent: 0, prices: [] }, 'x', 'y', 40)).toBe(40);
    expect(organisationUnitPrice({ discountPercent: 100, prices: [] }, 'x', 'y', 40)).toBe(0);
  });
});

describe('price list form', () => {
  const entry = { productId: 'aa'.repeat(12), unitId: 'bb'.repeat(12), price: 100 };
  it('refuses a price below zero, a discount outside 0–100 and the same product and unit twice', () => {
    expect(
      priceListSchema.safeParse({ discountPercent: 0, prices: [{ ...entry, price: -1 }] }).success,
    ).toBe(false);
    expect(priceListSchema.safeParse({ discountPercent: 101, prices: [] }).success).toBe(false);
    expect(priceListSchema.safeParse({ discountPercent: -1, prices: [] }).success).toBe(false);
    expect(
      priceListSchema.safeParse({
        discountPercent: 0,
        prices: [entry, { ...entry, unitId: entry.unitId.toUpperCase() }],
      }).success,
    ).toBe(false);
    expect(priceListSchema.safeParse({ discountPercent: 10, prices: [entry] }).success).toBe(true);
  });
});
