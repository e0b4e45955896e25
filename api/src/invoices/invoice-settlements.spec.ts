import { ConflictException } from '@nestjs/common';
import { counted, type SettlementInput } from './invoice-settlements.repository';
import { paidOnInstant, referenceKey } from './invoice-settlements';

const open = { total: 10_000, paid: 0, withheld: 0, credited: 0, excess: 0, balance: 10_000 };
const s = (kind: SettlementInput['kind'], amount: number): SettlementInput => ({
  id: `${kind}:1`,
  kind,
  amount,
  reference: 'R',
  at: new Date(),
  by: { id: 'u', fullName: 'Clerk', role: 'staff' },
});

describe('counting a settlement on an invoice', () => {
  it('a part payment leaves it open with its balance; the rest pays it', () => {
    const part = counted(open, s('bank', 4_000), false);
    expect(part).toMatchObject({ applied: 4_000, excess: 0 });
    expect(part.set).toEqual({
      paid: 4_000,
      withheld: 0,
      credited: 0,
      excess: 0,
      balance: 6_000,
      state: 'Open',
    });
    const rest = counted({ ...open, ...part.set }, s('paybill', 6_000), false);
    expect(rest.set).toMatchObject({ paid: 10_000, balance: 0, state: 'Paid' });
  });

  it('above the balance: refused, or with the excess allowed the balance and an excess', () => {
    expect(() => counted(open, s('bank', 10_001), false)).toThrow(ConflictException);
    const over = counted(open, s('paybill', 12_000), true);
    expect(over).toMatchObject({ applied: 10_000, excess: 2_000 });
    expect(over.set).toMatchObject({ paid: 10_000, excess: 2_000, balance: 0, state: 'Paid' });
  });

  it('tax withheld never above the balance, even with an excess allowed', () => {
    expect(() => counted(open, s('withholding', 10_001), true)).toThrow(
      /Tax withheld cannot be more than what the invoice still owes \(KES 10,000\)/,
    );
    expect(counted(open, s('withholding', 200), false).set).toMatchObject({
      withheld: 200,
      balance: 9_800,
    });
  });

  it('credit notes: never above the total less the notes before; all credited is Credited; on what was paid, an excess', () => {
    expect(() =>
      counted({ ...open, credited: 3_000, balance: 7_000 }, s('creditNote', 7_001), false),
    ).toThrow(/at most KES 7,000 is left to credit/);
    expect(counted(open, s('creditNote', 10_000), false).set).toMatchObject({
      credited: 10_000,
      balance: 0,
      state: 'Credited',
    });
    const paid = { ...open, paid: 10_000, balance: 0 };
    const back = counted(paid, s('creditNote', 1_500), false);
    expect(back).toMatchObject({ applied: 1_500, excess: 1_500 });
    expect(back.set).toMatchObject({ credited: 1_500, excess: 1_500, balance: 0, state: 'Paid' });
  });
});

describe('bank references and paid-on days', () => {
  it('a reference is one key however it is spelled', () => {
    expect(new Set([' ft 123 ', 'FT123', 'ft\t1 2 3']).size).toBe(3);
    expect(new Set([' ft 123 ', 'FT123', 'ft\t1 2 3'].map(referenceKey))).toEqual(
      new Set(['FT123']),
    );
    // Dashes (ASCII and typographic) are a bank's print, not the reference.
    expect(new Set(['FT-123', 'ft–1-2-3', 'FT—123'].map(referenceKey))).toEqual(new Set(['FT123']));
    expect(referenceKey(' - – ')).toBe('');
  });

  it('paidOn is a real day, not after today', () => {
    const now = new Date('2026-11-20T09:00:00Z');
    expect(paidOnInstant('2026-11-20', now).toISOString()).toBe('2026-11-20T09:00:00.000Z');
    for (const bad of ['2026-11-21', '2026-02-30', '20/11/2026', '2026-1-5'])
      expect(() => paidOnInstant(bad, now)).toThrow(/YYYY-MM-DD, not after today/);
  });
});
