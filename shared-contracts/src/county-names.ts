import names from './generated/kenya-county-names.json';

/**
 * Kenya's 47 county names as KENYA_COUNTIES (`@spc/shared-contracts/locations`) spells and orders
 * them, without their sub-counties and wards: a checkout shows its county picker with these at
 * once and loads the rest once a county is chosen. Both files come from
 * tools/contracts/kenya-locations.ts.
 */
export const KENYA_COUNTY_NAMES: readonly string[] = names;
