import { amountsHolding, bandOf, lowestOf } from './order-amount-bands';

describe('order totals in bands', () => {
  it('puts every whole amount in the band whose least it reaches and the next one it does not', () => {
    for (let amount = 0; amount <= 5000; amount++) {
      const band = bandOf(amount);
      expect(amount).toBeGreaterThanOrEqual(lowestOf(band));
      expect(amount).toBeLessThan(lowestOf(band + 1));
    }
    for (const amount of [99_999, 100_000, 1_520_940, 7_000_000])
      expect([lowestOf(bandOf(amount)) <= amount, amount < lowestOf(bandOf(amount) + 1)]).toEqual([
        true,
        true,
      ]);
  });

  it('names the totals holding a page, biggest or smallest first, and how many come before it', () => {
    const amounts = [100, 150, 150, 400, 1000, 1200, 5000, 90_000];
    const days = [{}, {}] as Record<string, number>[];
    amounts.forEach((a, i) => {
      const day = days[i % 2]!;
      day[bandOf(a)] = (day[bandOf(a)] ?? 0) + 1;
    });
    const page = (skip: number, limit: number, biggestFirst: boolean) => {
      const { total, amounts: window } = amountsHolding(days, skip, limit, biggestFirst);
      if (!window) return { total, page: [] };
      const inside = amounts
        .filter((a) => a >= window.from && a < window.to)
        .sort((a, b) => (biggestFirst ? b - a : a - b));
      return { total, page: inside.slice(window.skip, window.skip + limit) };
    };
    expect(page(0, 3, true)).toEqual({ total: 8, page: [90_000, 5000, 1200] });
    expect(page(3, 3, true)).toEqual({ total: 8, page: [1000, 400, 150] });
    expect(page(6, 3, true)).toEqual({ total: 8, page: [150, 100] });
    expect(page(0, 4, false)).toEqual({ total: 8, page: [100, 150, 150, 400] });
    expect(page(8, 3, true)).toEqual({ total: 8, page: [] });
  });
});
