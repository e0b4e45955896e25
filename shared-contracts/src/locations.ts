/**
 * Kenya's 47 counties with their sub-counties and wards, cleaned once from the `kenya-locations`
 * package by tools/contracts/kenya-locations.ts. Imported from `@spc/shared-contracts/locations` so
 * that only the screens that need it load it.
 */
import data from './generated/kenya-locations.json';

export interface SubCounty {
  name: string;
  wards: string[];
}

export interface County {
  code: string;
  name: string;
  sub_counties: SubCounty[];
}

export const KENYA_COUNTIES: readonly County[] = data as County[];

export function findCounty(name: string): County | undefined {
  const key = name.trim().toLowerCase();
  return KENYA_COUNTIES.find((c) => c.name.toLowerCase() === key);
}
