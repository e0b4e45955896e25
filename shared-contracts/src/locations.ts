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

/**
 * How a place name is compared: compatibility-normalised (full-width letters, ligatures), lower
 * case, a trailing "County" or "Sub-County" dropped, and everything but letters and digits removed
 * ("Mombasa County", " mombasa. " and "MOMBASA" are one key; "Murang'a" and "Muranga" too). A
 * look-alike letter from another alphabet (a Cyrillic "а") stays itself, so it matches nothing.
 */
export function placeKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]*(sub[\s\p{P}]*)?county[\s\p{P}\p{S}]*$/u, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const COUNTIES_BY_KEY = new Map(KENYA_COUNTIES.map((c) => [placeKey(c.name), c]));

/** The county of the location list this text names, however it was typed; undefined if none. */
export function findCounty(name: string): County | undefined {
  const key = placeKey(name);
  return key ? COUNTIES_BY_KEY.get(key) : undefined;
}

/** The sub-county of this county that the text names, however it was typed; undefined if none. */
export function findSubCounty(county: County, name: string): SubCounty | undefined {
  const key = placeKey(name);
  return key ? county.sub_counties.find((s) => placeKey(s.name) === key) : undefined;
}
