import { shopWeek } from './shop-week';

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
