/**
 * Order totals in bands of a quarter octave (each band's amounts at most 19 % apart): the order
 * counts' rollup counts each day's orders by band, so a list biggest first (or smallest) knows
 * which totals hold its page and reads those orders alone.
 */

/** The band of a total in whole KES (0 and 1 share band 0). */
export function bandOf(amount: number): number {
  return amount < 2 ? 0 : Math.floor(4 * Math.log2(amount));
}

/** The least total of a band (its totals are from here to the next band's least, excluded). */
export function lowestOf(band: number): number {
  if (band <= 0) return 0;
  let amount = Math.ceil(2 ** (band / 4));
  while (amount > 1 && bandOf(amount - 1) >= band) amount--;
  while (bandOf(amount) < band) amount++;
  return amount;
}

/** A day's orders by band of their totals (band → orders). */
export type AmountBands = Record<string, number>;

/**
 * The totals holding orders `skip` to `skip + limit` of a list sorted by total: [from, to) and
 * how many of those orders come before the page. Null when the page is past the end.
 */
export function amountsHolding(
  bands: AmountBands[],
  skip: number,
  limit: number,
  biggestFirst: boolean,
): { total: number; amounts: { from: number; to: number; skip: number } | null } {
  const byBand = new Map<number, number>();
  for (const day of bands)
    for (const [band, n] of Object.entries(day)) byBand.set(+band, (byBand.get(+band) ?? 0) + n);
  const sorted = [...byBand]
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (biggestFirst ? b - a : a - b));
  const total = sorted.reduce((n, [, c]) => n + c, 0);
  if (skip >= total) return { total, amounts: null };
  let [first, before] = [0, 0];
  while (before + sorted[first]![1] <= skip) before += sorted[first++]![1];
  let [last, through] = [first, before + sorted[first]![1]];
  while (through < skip + limit && last + 1 < sorted.length) through += sorted[++last]![1];
  const [low, high] = biggestFirst
    ? [sorted[last]![0], sorted[first]![0]]
    : [sorted[first]![0], sorted[last]![0]];
  return { total, amounts: { from: lowestOf(low), to: lowestOf(high + 1), skip: skip - before } };
}
