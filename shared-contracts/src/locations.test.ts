import { KENYA_COUNTY_NAMES } from './county-names';
import { findCounty, findSubCounty, KENYA_COUNTIES, placeKey } from './locations';

it('names the counties of the full list, in its order (the checkout shows them before the rest loads)', () => {
  expect(KENYA_COUNTY_NAMES).toEqual(KENYA_COUNTIES.map((c) => c.name));
  expect(KENYA_COUNTY_NAMES).toHaveLength(47);
});

describe('place names as people type them', () => {
  it.each([
    'Mombasa',
    'mombasa',
    ' MOMBASA ',
    'Mombasa County',
    'mombasa county.',
    'Mombasa.',
    'Ｍｏｍｂａｓａ',
  ])('reads %p as the list spelling Mombasa', (typed) => {
    expect(findCounty(typed)?.name).toBe('Mombasa');
  });

  it('matches names with punctuation in either spelling', () => {
    expect(findCounty('Muranga')?.name).toBe("Murang'A");
    expect(findCounty('Elgeyo Marakwet County')?.name).toBe('Elgeyo-Marakwet');
    expect(findCounty('homa-bay')?.name).toBe('Homa Bay');
  });

  it('matches nothing for a look-alike letter from another alphabet, or for no name', () => {
    expect(findCounty('Mombаsa')).toBeUndefined(); // Cyrillic а
    expect(findCounty('County')).toBeUndefined();
    expect(findCounty(' . ')).toBeUndefined();
    expect(findCounty('Atlantis')).toBeUndefined();
  });

  it('finds sub-counties of their own county only', () => {
    const nairobi = findCounty('Nairobi')!;
    expect(findSubCounty(nairobi, 'westlands sub-county')?.name).toBe('Westlands');
    expect(findSubCounty(nairobi, 'Ruiru')).toBeUndefined();
    expect(findSubCounty(findCounty('Bungoma')!, 'Mt Elgon')?.name).toBe('Mt. Elgon');
  });

  it('keeps a key of letters and digits only', () => {
    expect(placeKey('Tharaka-Nithi County')).toBe('tharakanithi');
  });
});
