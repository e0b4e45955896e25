import { addDays, balancesDueByDay, mondayOf, shopWeek } from './shop-clock';

describe('the shop calendar', () => {
  it('adds days across months and years, and takes them away', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-11-23', 0)).toBe('2026-11-23');
  });

  it('starts weeks on Monday', () => {
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23'); // a Monday
    expect(mondayOf('2026-11-25')).toBe('2026-11-23');
  });

  it('counts balances due over the coming seven days, not to Sunday', () => {
    expect(balancesDueByDay('2026-11-27')).toBe('2026-12-04'); // a Friday: past the Sunday
    expect(balancesDueByDay('2026-11-29')).toBe('2026-12-06');
  });
});

describe('shop week', () => {
  it('runs Monday to Sunday in Nairobi time', () => {
    // Friday 27 November 2026, 10:00 in Nairobi.
    expect(shopWeek(new Date('2026-11-27T07:00:00Z'))).toEqual({
      from: '2026-11-23',
      to: '2026-11-29',
    });
  });

  it('is already Monday in Nairobi at 22:00 UTC on a Sunday', () => {
    expect(shopWeek(new Date('2026-11-29T22:00:00Z'))).toEqual({
      from: '2026-11-30',
      to: '2026-12-06',
    });
  });

  it('keeps a Sunday in its own week', () => {
    expect(shopWeek(new Date('2026-11-29T12:00:00Z'))).toEqual({
      from: '2026-11-23',
      to: '2026-11-29',
    });
  });
});
