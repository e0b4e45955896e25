import { comingSeasons } from './seasons';

const bookings = {
  depositPercent: 30,
  balanceDays: 7,
  releaseDeposit: 'keep' as const,
  seasons: [
    { key: 'long-rains' as const, from: '03-01', to: '05-31' },
    { key: 'short-rains' as const, from: '10-01', to: '12-31' },
  ],
  leadDays: 42,
};

describe('the coming seasons', () => {
  it('is this year’s season while its end has not passed, else next year’s', () => {
    const [long, short] = comingSeasons(bookings, '2026-11-27');
    expect(long).toEqual({
      key: 'long-rains',
      name: 'Long rains',
      from: '2027-03-01',
      to: '2027-05-31',
      readyFrom: '2027-01-18',
    });
    expect(short).toEqual(
      expect.objectContaining({ from: '2026-10-01', to: '2026-12-31', readyFrom: '2026-08-20' }),
    );
  });

  it('keeps the season under way, to its last day, and moves on the day after', () => {
    expect(comingSeasons(bookings, '2027-05-31')[0]!.from).toBe('2027-03-01');
    expect(comingSeasons(bookings, '2027-06-01')[0]!.from).toBe('2028-03-01');
    expect(comingSeasons(bookings, '2027-01-01')[1]!.to).toBe('2027-12-31');
  });
});
