/**
 * `npm run backup [-- --out <folder>] [--format mongodump|jsonl] [--uploads <dir> | --no-uploads]`
 *
 * Copies the database named by MONGODB_URI (the launcher's local one when unset) and the uploaded
 * images into one folder (default .data/backups/spc-<UTC time>). With mongodump installed its
 * gzipped archive is taken; otherwise every collection is exported to JSON lines (canonical EJSON)
 * with its indexes. See backup-format.ts; restore with `npm run restore -- <folder>`.
 */
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
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
}

main().catch((error: unknown) => {
  console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
