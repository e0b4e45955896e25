import { SEASON_NAMES, type SeasonKey } from '@spc/shared-contracts';
import type { AppConfig } from '../config/app-config';
import { addDays } from '../common/shop-clock';

/** A season's coming occurrence: its days, and the ready days that count as "for" it. */
export interface ComingSeason {
  key: SeasonKey;
  name: string;
  /** `YYYY-MM-DD` */
  from: string;
  to: string;
  /** Batches ready from here (the lead days before the start) to `to` are for this season. */
  readyFrom: string;
}

/**
 * The coming occurrence of each season on the shop day `today`: this year's while its end has not
 * passed, else next year's.
 */
export function comingSeasons(bookings: AppConfig['bookings'], today: string): ComingSeason[] {
  const year = Number(today.slice(0, 4));
  return bookings.seasons.map(({ key, from, to }) => {
    const y = `${year}-${to}` >= today ? year : year + 1;
    const start = `${y}-${from}`;
    return {
      key,
      name: SEASON_NAMES[key],
      from: start,
      to: `${y}-${to}`,
      readyFrom: addDays(start, -bookings.leadDays),
    };
  });
}
