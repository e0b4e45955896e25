import { MongoBulkWriteError, type AnyBulkWriteOperation, type Db } from 'mongodb';
import { ANONYMOUS_NAME } from '../../common/personal-data';

/** What the audit directory migration did. */
export interface AuditDirectoryMigration {
  /** Entries read. */
  entries: number;
  /** Action codes and people added to the directory (those already there are left alone). */
  actions: number;
  people: number;
}

const BATCH = 1000;

/** A row of the directory: keyed by the code or the person's id. */
interface Row {
  _id: string;
  [field: string]: unknown;
}

interface Author {
  fullName: string;
  role: string;
  at: Date;
}

/**
 * Fills the trail's directory (`audit_actions`, `audit_people`: audit-directory.repository.ts) from
 * the entries written before the API kept it: every action code, and every author as their latest
 * entry names them (an erased person, whose entries now say "Deleted customer", is left out).
 * Reads every entry once (a migration, not a request). Idempotent and safe beside running API
 * instances: each write is the API's own upsert by `_id`, a person's conditional on no later entry
 * having named them, so a second run, or one at the same time, changes nothing.
 */
export async function migrateAuditDirectory(db: Db): Promise<AuditDirectoryMigration> {
  const actions = new Map<string, Date>();
  const people = new Map<string, Author>();
  let entries = 0;
  const cursor = db
    .collection('audit_logs')
    .find({}, { projection: { _id: 0, action: 1, performedBy: 1, timestamp: 1 }, batchSize: 5000 });
  for await (const e of cursor) {
    entries++;
    const at = e.timestamp as Date;
    const first = actions.get(e.action as string);
    if (!first || first > at) actions.set(e.action as string, at);
    const by = e.performedBy as { id: string; fullName: string; role: string };
    const latest = people.get(by.id);
    if (!latest || latest.at < at) people.set(by.id, { fullName: by.fullName, role: by.role, at });
  }
  const actionOps: AnyBulkWriteOperation<Row>[] = [...actions].map(([code, at]) => ({
    updateOne: { filter: { _id: code }, update: { $setOnInsert: { firstAt: at } }, upsert: true },
  }));
  const personOps: AnyBulkWriteOperation<Row>[] = [...people]
    .filter(([, p]) => p.fullName !== ANONYMOUS_NAME)
    .map(([id, p]) => ({
      updateOne: {
        filter: { _id: id, at: { $lte: p.at } },
        update: { $set: { fullName: p.fullName, role: p.role, at: p.at } },
        upsert: true,
      },
    }));
  return {
    entries,
    actions: await upsertAll(db, 'audit_actions', actionOps),
    people: await upsertAll(db, 'audit_people', personOps),
  };
}

/**
 * The upserts in unordered batches; how many inserted. One that meets a row already there (a
 * later entry's, or another run's) is left to that row.
 */
async function upsertAll(db: Db, name: string, ops: AnyBulkWriteOperation<Row>[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < ops.length; i += BATCH) {
    try {
      const res = await db
        .collection<Row>(name)
        .bulkWrite(ops.slice(i, i + BATCH), { ordered: false });
      inserted += res.upsertedCount;
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) throw error;
      const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
      if (errors.some((w) => w.code !== 11000)) throw error;
      inserted += error.result.upsertedCount;
    }
  }
  return inserted;
}
