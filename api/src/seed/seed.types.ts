/** A module's demo data: `seed` fills its collections and tells what it created. */
export interface Seeder {
  readonly name: string;
  seed(): Promise<string>;
  /** What the demo holds of it now, counted in the database (printed once every seeder ran). */
  counts?(): Promise<string>;
}

/** Multi-provider token under which domain modules register their seeders. */
export const SEEDERS = Symbol('SEEDERS');
