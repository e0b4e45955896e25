/**
 * The shop's backup: one folder holding the database and the uploaded images.
 *
 *   manifest.json        what the folder holds (format, database, collections, counts, indexes)
 *   dump.archive.gz      mongodump's gzipped archive            (format "mongodump")
 *   <collection>.jsonl   one document a line, canonical EJSON   (format "jsonl")
 *   uploads/             a copy of UPLOADS_DIR, when the images are on local disk
 *
 * Canonical Extended JSON keeps every BSON type (ObjectId, Date, Int32/Int64/Double, Binary), so a
 * restore writes back exactly the documents that were read.
 */
import { spawnSync } from 'node:child_process';
import { BSON, type Document, type IndexDescription } from 'mongodb';

export const MANIFEST = 'manifest.json';
export const ARCHIVE = 'dump.archive.gz';
export const UPLOADS = 'uploads';

export type BackupFormat = 'mongodump' | 'jsonl';

export interface CollectionEntry {
  name: string;
  count: number;
  /** Every index but `_id_`, as listIndexes gives it (name, key, unique, expireAfterSeconds...). */
  indexes: Document[];
}

export interface Manifest {
  app: 'spc-shop';
  version: 1;
  format: BackupFormat;
  createdAt: string;
  database: string;
  collections: CollectionEntry[];
  uploads: boolean;
}

export const toLine = (doc: Document): string => BSON.EJSON.stringify(doc, { relaxed: false });
export const fromLine = (line: string): Document =>
  BSON.EJSON.parse(line, { relaxed: false }) as Document;

/** True when the MongoDB database tools are installed (mongodump and mongorestore). */
export function hasDatabaseTools(): boolean {
  return ['mongodump', 'mongorestore'].every(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0,
  );
}

/** listIndexes' answer reduced to what createIndex takes again. */
export function indexSpec(index: Document): { key: Document; options: IndexDescription } {
  const { key, v: _v, ns: _ns, ...options } = index;
  return { key: key as Document, options: options as IndexDescription };
}

export function databaseName(uri: string): string {
  const name = new URL(uri.replace(/^mongodb(\+srv)?:/, 'http:')).pathname.replace(/^\//, '');
  if (!name) throw new Error('MONGODB_URI must name the database (mongodb://host:27017/spc)');
  return decodeURIComponent(name);
}

export function parseArgs(argv: string[]): {
  flags: Record<string, string | true>;
  rest: string[];
} {
  const flags: Record<string, string | true> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      rest.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) flags[name] = inline;
    else if (next !== undefined && !next.startsWith('--') && VALUED.has(name))
      flags[name] = argv[++i]!;
    else flags[name] = true;
  }
  return { flags, rest };
}

const VALUED = new Set(['out', 'format', 'uploads', 'keep-days']);
