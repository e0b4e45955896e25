/**
 * Cleans the `kenya-locations` package's data once into the shape the apps use (counties, each with
 * its sub-counties, each with its wards under one `wards` key), sorted, without duplicates, and writes
 * it to shared-contracts, with the county names alone in a file of their own (the checkout shows its
 * county picker with them and loads the rest once a county is chosen). Run:
 * npx tsx tools/contracts/kenya-locations.ts
 *
 * The sub-county level is the package's constituencies: its own sub-county list leaves 77 of 307
 * without wards, while the 290 constituencies carry all 1,448 wards (IEBC's electoral wards).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../paths';

interface CleanCounty {
  code: string;
  name: string;
  sub_counties: { name: string; wards: string[] }[];
}

const titleCase = (s: string) =>
  s
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\b([a-z])/g, (m) => m.toUpperCase());
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

async function main(): Promise<void> {
  // The package is an ES module; this script runs as CommonJS.
  const { getConstituencies, getCounties, getWardsInConstituency } =
    await import('kenya-locations');
  const counties: CleanCounty[] = getCounties()
    .map((county: { code: string; name: string }) => {
      const subCounties = new Map<string, Set<string>>();
      for (const sub of getConstituencies().filter(
        (c: { county: string }) => c.county === county.name,
      )) {
        const name = titleCase(sub.name);
        const wards = subCounties.get(name) ?? new Set<string>();
        for (const ward of getWardsInConstituency(sub.name)) wards.add(titleCase(ward.name));
        subCounties.set(name, wards);
      }
      return {
        code: county.code,
        name: titleCase(county.name),
        sub_counties: [...subCounties]
          .map(([name, wards]) => ({ name, wards: [...wards].sort((a, b) => a.localeCompare(b)) }))
          .sort(byName),
      };
    })
    .sort(byName);

  const target = path.join(WORKSPACE_ROOT, 'shared-contracts/src/generated/kenya-locations.json');
  writeFileSync(target, `${JSON.stringify(counties)}\n`);
  writeFileSync(
    path.join(WORKSPACE_ROOT, 'shared-contracts/src/generated/kenya-county-names.json'),
    `${JSON.stringify(counties.map((c) => c.name))}\n`,
  );
  const subs = counties.flatMap((c) => c.sub_counties);
  console.log(
    `wrote ${path.relative(WORKSPACE_ROOT, target)}: ${counties.length} counties, ${subs.length} sub-counties, ` +
      `${subs.reduce((n, s) => n + s.wards.length, 0)} wards (${subs.filter((s) => !s.wards.length).length} sub-counties without wards)`,
  );
}

void main();
