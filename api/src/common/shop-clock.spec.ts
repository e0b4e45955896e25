import {
  addDays,
  mondayOf,
  shopDateTime,
  shopDay,
  shopDayAndHour,
  startOfShopDay,
} from './shop-clock';

describe('shop time (Africa/Nairobi, UTC+3)', () => {
  it('puts 22:30 UTC on the next Nairobi day', () => {
    expect(shopDay(new Date('2026-11-22T20:59:59Z'))).toBe('2026-11-22');
    expect(shopDay(new Date('2026-11-22T21:00:00Z'))).toBe('2026-11-23');
  });

  it('starts a shop day at 21:00 UTC the evening before', () => {
    expect(startOfShopDay('2026-11-23').toISOString()).toBe('2026-11-22T21:00:00.000Z');
  });

  it('starts weeks on Monday', () => {
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23'); // a Monday
    expect(mondayOf('2026-11-25')).toBe('2026-11-23');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it("reads the hour and the clerk's date-time in Nairobi", () => {
    expect(shopDayAndHour(new Date('2026-11-22T21:05:00Z'))).toEqual({
      day: '2026-11-23',
      hour: 0,
    });
    expect(shopDayAndHour(new Date('2026-11-23T14:59:59Z'))).toEqual({
      day: '2026-11-23',
      hour: 17,
    });
    expect(shopDateTime('2026-11-22T21:05:09Z')).toBe('2026-11-23 00:05');
    expect(shopDateTime('2026-11-23T09:30:00.000Z')).toBe('2026-11-23 12:30');
    expect(shopDateTime(null)).toBe('');
  });

  it('reads every instant as Intl does, minute for minute, across years and day edges', () => {
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Africa/Nairobi',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const asIntl = (d: Date) => {
      const p = Object.fromEntries(intl.formatToParts(d).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    };
    const from = Date.UTC(2000, 0, 1);
    const span = Date.UTC(2099, 11, 31) - from;
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const instants = [
      ...Array.from({ length: 5000 }, () => new Date(from + Math.floor(random() * span))),
      // The last and first seconds of Nairobi days, and a leap day.
      new Date('2026-11-22T20:59:59.999Z'),
      new Date('2026-11-22T21:00:00.000Z'),
      new Date('2028-02-28T21:00:00.000Z'),
      new Date('2026-12-31T21:00:00.000Z'),
    ];
    for (const at of instants)
      expect({ at, shop: shopDateTime(at) }).toEqual({ at, shop: asIntl(at) });
    expect(() => shopDay(new Date(Number.NaN))).toThrow(RangeError);
  });
});
