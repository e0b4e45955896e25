/**
 * `npm run restore -- <backup folder> [--drop] [--uploads <dir> | --no-uploads]`
 *
 * Writes a backup made by `npm run backup` into the database named by MONGODB_URI (the launcher's
 * local one when unset), which may have another name than the one backed up, and copies its images
 * back into UPLOADS_DIR. A database that holds documents is refused unless --drop is given; with it,
 * every collection of the target is dropped first, so the result is exactly the backup. Stop the API
 * while restoring: its in-memory catalogue would otherwise serve the old data for up to 30 s.
 */
import { cpSync, createReadStream, existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient, type Document } from 'mongodb';
import { WORKSPACE_ROOT } from '../paths';
import {
  ARCHIVE,
  databaseName,
  fromLine,
  hasDatabaseTools,
  indexSpec,
  MANIFEST,
  parseArgs,
  UPLOADS,
  type Manifest,
} from './backup-format';

const BATCH = 500;

async function main(): Promise<void> {
  const { flags, rest } = parseArgs(process.argv.slice(2));
  const folder = rest[0] && path.resolve(rest[0]);
  if (!folder) throw new Error('usage: npm run restore -- <backup folder> [--drop]');
  if (!existsSync(path.join(folder, MANIFEST))) throw new Error(`${folder} holds no ${MANIFEST}`);
  const manifest = JSON.parse(readFileSync(path.join(folder, MANIFEST), 'utf8')) as Manifest;
  if (manifest.app !== 'spc-shop' || manifest.version !== 1)
    throw new Error(`${folder} is not a backup of this shop (format version 1)`);
  const uri = process.env.MONGODB_URI;
  if (!uri)
    throw new Error('MONGODB_URI is not set (npm run restore sets it to the local database)');
  const database = databaseName(uri);

  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const db = client.db(database);
    const existing = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((name) => !name.startsWith('system.'));
    let holdsData = false;
    for (const name of existing)
      if ((await db.collection(name).countDocuments({}, { limit: 1 })) > 0) holdsData = true;
    if (holdsData && flags.drop !== true)
      throw new Error(
        `the database ${database} holds data: add --drop to replace it with the backup`,
      );
    for (const name of existing) await db.collection(name).drop();

    if (manifest.format === 'mongodump') {
      if (!hasDatabaseTools()) throw new Error('this backup needs mongorestore on PATH');
      const restore = spawnSync(
        'mongorestore',
        [
          '--uri',
          uri,
          `--archive=${path.join(folder, ARCHIVE)}`,
          '--gzip',
          '--drop',
          `--nsFrom=${manifest.database}.*`,
          `--nsTo=${database}.*`,
        ],
        { stdio: 'inherit' },
      );
      if (restore.status !== 0) throw new Error(`mongorestore failed (exit ${restore.status})`);
    } else {
      for (const entry of manifest.collections) {
        const collection = db.collection(entry.name);
        await db.createCollection(entry.name).catch(() => undefined);
        let batch: Document[] = [];
        let written = 0;
        const lines = createInterface({
          input: createReadStream(path.join(folder, `${entry.name}.jsonl`)),
          crlfDelay: Infinity,
        });
        for await (const line of lines) {
          if (!line.trim()) continue;
          batch.push(fromLine(line));
          if (batch.length >= BATCH) {
            await collection.insertMany(batch, { ordered: true });
            written += batch.length;
            batch = [];
          }
        }
        if (batch.length) {
          await collection.insertMany(batch, { ordered: true });
          written += batch.length;
        }
        if (written !== entry.count)
          throw new Error(
            `${entry.name}: ${written} documents restored, the backup lists ${entry.count}`,
          );
        for (const index of entry.indexes) {
          const { key, options } = indexSpec(index);
          // One the server cannot make is reported, not fatal: the API
          // creates the indexes its schemas declare when it starts.
          await collection
            .createIndex(key, options)
            .catch((e: Error) =>
              console.warn(
                `[restore] ${entry.name}: index ${String(index.name)} not created: ${e.message}`,
              ),
            );
        }
      }
    }
  } finally {
    await client.close();
  }

  let uploadsTo: string | undefined;
  if (manifest.uploads && flags['no-uploads'] !== true) {
    uploadsTo = path.resolve(
      WORKSPACE_ROOT,
      typeof flags.uploads === 'string'
        ? flags.uploads
        : (process.env.UPLOADS_DIR ?? '.data/uploads'),
    );
    cpSync(path.join(folder, UPLOADS), uploadsTo, { recursive: true });
  }
  const total = manifest.collections.reduce((sum, c) => sum + c.count, 0);
  console.log(
    `[restore] ${manifest.database} of ${manifest.createdAt} -> ${database}: ` +
      `${manifest.collections.length} collections, ${total} documents (${manifest.format})` +
      `${uploadsTo ? `, uploads into ${uploadsTo}` : ''}`,
  );
}

main().catch((error: unknown) => {
  console.error(`[restore] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
