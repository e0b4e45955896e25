import type { mongo } from 'mongoose';
import { isDuplicateKeyError } from './mongo-errors';

/**
 * The shop never asks an upsert that races for a value: SecantusDB applies every one but answers
 * some of the racers without the document (`tools/db/upsert-race-check.ts`), so a counter's
 * increment would be counted and its number lost. A counter is created first (an insert that may
 * meet another's: then it exists) and then incremented, an update of a document that exists, which
 * always answers it. MongoDB answers either way; this costs it one insert per counter's life.
 */
export async function nextInSequence(
  collection: mongo.Collection<mongo.Document>,
  id: string,
  field = 'seq',
): Promise<number> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const doc = await collection.findOneAndUpdate(
      { _id: id as never },
      { $inc: { [field]: 1 } },
      { returnDocument: 'after' },
    );
    if (doc) return (doc as Record<string, number>)[field];
    try {
      await collection.insertOne({ _id: id as never, [field]: 0 });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
  throw new Error(`The counter ${id} answered no number`);
}

/**
 * An upsert whose update is idempotent (`$set`, `$setOnInsert`): the document after it.
 * `write(true)` upserts, `write(false)` only updates. When the upsert met another inserting the
 * same document (a duplicate key) or answered nothing (see above), the document exists now and the
 * update is applied to it once more.
 */
export async function upsertReturning<T>(
  write: (upsert: boolean) => Promise<T | null>,
): Promise<T> {
  try {
    const doc = await write(true);
    if (doc) return doc;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const doc = await write(false);
  if (!doc) throw new Error('An upserted document could not be read again');
  return doc;
}
