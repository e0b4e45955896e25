import { matchesSearch, type SnapshotProduct } from './catalogue-snapshot';
import { StringPool } from './string-pool';

describe('StringPool', () => {
  it('keeps one copy of equal strings read apart', () => {
    const pool = new StringPool();
    const first = pool.intern(['Hardened', 'off'].join(' '));
    expect(pool.intern(['Hardened', 'off'].join(' '))).toBe(first);
    expect(pool.intern('Other')).toBe('Other');
  });

  it('lower-cases a text once, and gives back a text without capitals as it is', () => {
    const pool = new StringPool();
    const text = 'Grafted Hass Avocado';
    expect(pool.lowerCase(text)).toBe('grafted hass avocado');
    expect(pool.lowerCase(text)).toBe(pool.lowerCase(text));
    const lower = 'already lower';
    expect(pool.lowerCase(lower)).toBe(lower);
  });
});

describe('matchesSearch', () => {
  const product = { searchName: 'hass avocado', searchDescription: 'grafted\non rootstock' };
  it('finds the search in the name or the description, never across the two', () => {
    expect(matchesSearch(product as SnapshotProduct, 'avocado')).toBe(true);
    expect(matchesSearch(product as SnapshotProduct, 'rootstock')).toBe(true);
    expect(matchesSearch(product as SnapshotProduct, 'avocado grafted')).toBe(false);
    expect(matchesSearch(product as SnapshotProduct, 'mango')).toBe(false);
  });
});
