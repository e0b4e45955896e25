import {
  OSCU_TAX_RATES,
  OSCU_TAX_TYPES,
  type OscuSalesItem,
  type OscuTaxFields,
  type OscuTaxType,
} from './oscu.types';

/** One line of a sale as the shop knows it: a sale unit of a product, at its tax-inclusive price. */
export interface OscuLine {
  itemCd: string;
  itemClsCd: string;
  itemNm: string;
  pkgUnitCd: string;
  qtyUnitCd: string;
  qty: number;
  /** KES per unit, tax included (the price the shop shows). */
  unitPrice: number;
  /** KES off the line, tax included. */
  discount?: number;
  taxTyCd: OscuTaxType;
}

export interface OscuTotals extends OscuTaxFields {
  totItemCnt: number;
  totTaxblAmt: number;
  totTaxAmt: number;
  totAmt: number;
}

const cents = (kes: number) => Math.round(kes * 100);
const kes = (c: number) => c / 100;

/** The tax inside a tax-inclusive amount, in cents, rounded to the cent. */
export function taxInsideCents(amountCents: number, taxType: OscuTaxType): number {
  const rate = OSCU_TAX_RATES[taxType];
  return Math.round((amountCents * rate) / (100 + rate));
}

/** The `itemList` of a sale or credit note: prices stay tax-inclusive and each line says its tax. */
export function oscuSalesItems(lines: readonly OscuLine[]): OscuSalesItem[] {
  return lines.map((line, index) => {
    const supply = cents(line.unitPrice * line.qty);
    const discount = cents(line.discount ?? 0);
    const taxable = supply - discount;
    return {
      itemSeq: index + 1,
      itemCd: line.itemCd,
      itemClsCd: line.itemClsCd,
      itemNm: line.itemNm,
      pkgUnitCd: line.pkgUnitCd,
      pkg: line.qty,
      qtyUnitCd: line.qtyUnitCd,
      qty: line.qty,
      prc: line.unitPrice,
      splyAmt: kes(supply),
      dcRt: supply > 0 ? Math.round((discount / supply) * 10_000) / 100 : 0,
      dcAmt: kes(discount),
      taxTyCd: line.taxTyCd,
      taxblAmt: kes(taxable),
      taxAmt: kes(taxInsideCents(taxable, line.taxTyCd)),
      totAmt: kes(taxable),
    };
  });
}

/** The header totals of a sale from its lines: the breakdown by tax type A–E and the sums. */
export function oscuTotals(items: readonly OscuSalesItem[]): OscuTotals {
  const taxable: Record<OscuTaxType, number> = { A: 0, B: 0, C: 0, D: 0, E: 0 };
  const tax: Record<OscuTaxType, number> = { A: 0, B: 0, C: 0, D: 0, E: 0 };
  for (const item of items) {
    taxable[item.taxTyCd] += cents(item.taxblAmt);
    tax[item.taxTyCd] += cents(item.taxAmt);
  }
  const fields = {} as OscuTaxFields;
  for (const type of OSCU_TAX_TYPES) {
    fields[`taxblAmt${type}` as const] = kes(taxable[type]);
    fields[`taxRt${type}` as const] = OSCU_TAX_RATES[type];
    fields[`taxAmt${type}` as const] = kes(tax[type]);
  }
  const sum = (values: Record<OscuTaxType, number>) =>
    kes(OSCU_TAX_TYPES.reduce((total, type) => total + values[type], 0));
  return {
    ...fields,
    totItemCnt: items.length,
    totTaxblAmt: sum(taxable),
    totTaxAmt: sum(tax),
    totAmt: kes(items.reduce((total, item) => total + cents(item.totAmt), 0)),
  };
}

/**
 * Each line's share of `amount` (KES, at most the lines' total), as discounts on the lines so each
 * line keeps its item, quantity, price and tax type: a deposit, a balance or a part credit note is
 * that share of every line, its tax worked per type as for the whole. Cents left by rounding go to
 * the largest remainders.
 */
export function shareOfLines(lines: readonly OscuLine[], amount: number): OscuLine[] {
  const totals = lines.map((l) => cents(l.unitPrice * l.qty) - cents(l.discount ?? 0));
  const whole = totals.reduce((a, b) => a + b, 0);
  const target = Math.min(cents(amount), whole);
  if (target === whole) return lines.map((l) => ({ ...l }));
  // Each line's exact share rounded down, then the cents left to the largest remainders (a line's
  // share never goes above its own total).
  const exact = totals.map((t) => (t * target) / whole);
  const shares = exact.map((e) => Math.floor(e));
  let left = target - shares.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e - Math.floor(e) }))
    .sort((x, y) => y.rest - x.rest || x.i - y.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if (shares[i]! < totals[i]!) {
      shares[i]! += 1;
      left -= 1;
    }
  }
  return lines.map((line, i) => ({
    ...line,
    discount: (cents(line.unitPrice * line.qty) - shares[i]!) / 100,
  }));
}
