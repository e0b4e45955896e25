import {
  customerMoneyHowText,
  moneyCodeText,
  moneyNotes,
  staffMoneyHowText,
  type MoneyEntry,
} from './money';

const entry = (overrides: Partial<MoneyEntry> = {}): MoneyEntry => ({
  id: 'c2b:SGR4T5Y6U7',
  direction: 'in',
  kind: 'paybill',
  amount: 1000,
  code: 'SGR4T5Y6U7',
  reference: '',
  at: '2026-11-22T08:00:00.000Z',
  state: 'credited',
  payer: '254712345678',
  by: null,
  of: null,
  returned: 0,
  split: null,
  ...overrides,
});

describe('money entry words', () => {
  it('says how the money moved, with the B2C number for staff only', () => {
    expect(staffMoneyHowText(entry())).toBe('Paybill');
    expect(staffMoneyHowText(entry({ kind: 'desk-mpesa' }))).toBe('M-Pesa at the desk');
    expect(staffMoneyHowText(entry({ kind: 'b2c', direction: 'out' }))).toBe('B2C to 254712345678');
    expect(staffMoneyHowText(entry({ kind: 'mpesa-by-hand' }))).toBe('M-Pesa by hand');
    expect(customerMoneyHowText(entry({ kind: 'b2c', direction: 'out', payer: null }))).toBe(
      'Sent to your M-Pesa',
    );
    expect(customerMoneyHowText(entry({ kind: 'desk-mpesa' }))).toBe(
      'M-Pesa, recorded by the shop',
    );
  });

  it("shows an incoming payment's receipt code and a payback's own reference", () => {
    expect(moneyCodeText(entry())).toBe('SGR4T5Y6U7');
    expect(moneyCodeText(entry({ kind: 'cash', code: null, reference: 'Given to Njeri' }))).toBe(
      'Given to Njeri',
    );
    expect(
      moneyCodeText(entry({ direction: 'out', kind: 'reversal', reference: 'RVS8K2L1M0' })),
    ).toBe('RVS8K2L1M0');
  });

  it('notes a split payment and what of it went back', () => {
    expect(moneyNotes(entry())).toEqual([]);
    expect(
      moneyNotes(entry({ split: { deposit: 300, balance: 700, excess: 0 }, returned: 300 })),
    ).toEqual(['deposit KES 300', 'balance KES 700', 'KES 300 given back']);
    expect(moneyNotes(entry({ split: { deposit: 0, balance: 900, excess: 100 } }), 'KSH')).toEqual([
      'balance KSH 900',
      'over-paid KSH 100',
    ]);
    expect(moneyNotes(entry({ direction: 'out', returned: 5 }))).toEqual([]);
  });
});
