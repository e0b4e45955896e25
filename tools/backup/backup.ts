/**
 * `npm run backup [-- --out <folder>] [--format mongodump|jsonl] [--uploads <dir> | --no-uploads]
 *  [--keep-days <n>]`
 *
 * Copies the database named by MONGODB_URI (the launcher's local one when unset) and the uploaded
 * images into one folder (default .data/backups/spc-<UTC time>). With mongodump installed its
 * gzipped archive is taken; otherwise every collection is exported to JSON lines (canonical EJSON)
 * with its indexes. See backup-format.ts; restore with `npm run restore -- <folder>`.
 *
 * `--keep-days <n>` (issue 31: backups follow the retention periods) then deletes the earlier
 * backups of this shop beside the new one (folders whose manifest.json is this app's) made more
 * than n days ago, so data pruned or erased in the database is gone from the backups n days later.
 */
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { WORKSPACE_ROOT } from '../paths';
import {
  ARCHIVE,
  databaseName,
  hasDatabaseTools,
  MANIFEST,
  parseArgs,
  toLine,
  UPLOADS,
  type BackupFormat,
  type CollectionEntry,
  type Manifest,
} from './backup-format';

async function main(): Promise<void> {
  const { flags } = parseArgs(process.argv.slice(2));
  const uri = process.env.MONGODB_URI;
  if (!uri)
    throw new Error('MONGODB_URI is not set (npm run backup sets it to the local database)');
  const database = databaseName(uri);
  const format = (flags.format ?? (hasDatabaseTools() ? 'mongodump' : 'jsonl')) as BackupFormat;
  if (format !== 'mongodump' && format !== 'jsonl')
    throw new Error('--format is mongodump or jsonl');
  if (format === 'mongodump' && !hasDatabaseTools())
    throw new Error('--format mongodump needs mongodump and mongorestore on PATH');

  const keepDays = flags['keep-days'] === undefined ? undefined : Number(flags['keep-days']);
  if (keepDays !== undefined && !(Number.isInteger(keepDays) && keepDays >= 1))
    throw new Error('--keep-days is a whole number of days, 1 or more');

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = path.resolve(
    typeof flags.out === 'string'
      ? flags.out
      : path.join(WORKSPACE_ROOT, '.data', 'backups', `spc-${stamp}`),
  );
  if (existsSync(out) && readdirSync(out).length > 0)
    throw new Error(`${out} is not empty: choose a new folder for the backup`);
  mkdirSync(out, { recursive: true });

  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  const collections: CollectionEntry[] = [];
  try {
    const db = client.db(database);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((name) => !name.startsWith('system.'))
      .sort();
    for (const name of names) {
      const collection = db.collection(name);
      const indexes = (await collection.listIndexes().toArray()).filter((i) => i.name !== '_id_');
      let count = 0;
      if (format === 'jsonl') {
        const file = createWriteStream(path.join(out, `${name}.jsonl`));
        for await (const doc of collection.find({}).sort({ _id: 1 })) {
          if (!file.write(`${toLine(doc)}\n`)) await once(file, 'drain');
          count += 1;
        }
        file.end();
        await once(file, 'close');
      } else {
        count = await collection.countDocuments();
      }
      collections.push({ name, count, indexes });
    }
  } finally {
    await client.close();
  }

  if (format === 'mongodump') {
    const dump = spawnSync(
      'mongodump',
      ['--uri', uri, `--archive=${path.join(out, ARCHIVE)}`, '--gzip'],
      {
        stdio: 'inherit',
      },
    );
    if (dump.status !== 0) throw new Error(`mongodump failed (exit ${dump.status})`);
  }

  let uploads = false;
  const uploadsDir =
    flags['no-uploads'] === true
      ? undefined
      : path.resolve(
          WORKSPACE_ROOT,
          typeof flags.uploads === 'string'
            ? flags.uploads
            : (process.env.UPLOADS_DIR ?? '.data/uploads'),
        );
  if (uploadsDir && existsSync(uploadsDir)) {
    cpSync(uploadsDir, path.join(out, UPLOADS), { recursive: true });
    uploads = true;
  }

  const manifest: Manifest = {
    app: 'spc-shop',
    version: 1,
    format,
    createdAt: new Date().toISOString(),
    database,
    collections,
    uploads,
  };
  writeFileSync(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const total = collections.reduce((sum, c) => sum + c.count, 0);
  console.log(
    `[backup] ${database}: ${collections.length} collections, ${total} documents (${format})` +
      `${uploads ? `, uploads from ${uploadsDir}` : ''} -> ${out}`,
  );
  if (keepDays !== undefined) {
    const removed = pruneBackups(out, keepDays);
    console.log(
      `[backup] kept ${keepDays} days: ${removed.length ? `deleted ${removed.join(', ')}` : 'none older'}`,
    );
  }
}

/** Deletes this shop's backups beside `out` made more than `days` days ago; answers their names. */
function pruneBackups(out: string, days: number): string[] {
  const parent = path.dirname(out);
  const cutoff = Date.now() - days * 24 * 60 * 60 * 1000;
  const removed: string[] = [];
  for (const name of readdirSync(parent)) {
    const folder = path.join(parent, name);
    if (folder === out) continue;
    let manifest: Partial<Manifest>;
    try {
      manifest = JSON.parse(readFileSync(path.join(folder, MANIFEST), 'utf8')) as Partial<Manifest>;
    } catch {
      continue; // not a backup of this shop: left alone
    }
    if (manifest.app !== 'spc-shop' || !manifest.createdAt) continue;
    if (Date.parse(manifest.createdAt) < cutoff) {
      rmSync(folder, { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}

main().catch((error: unknown) => {
  console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
