import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { ActorKind } from '@spc/shared-contracts';
import { isDuplicateKeyError } from '../common/mongo-errors';
import { ANONYMOUS_NAME } from '../common/personal-data';
import type { AuditPersonDto } from './dto/audit-log.dto';
import { AuditAction, AuditPerson } from './schemas/audit-directory.schema';

/** An entry as the directory notes it: its action, its author and its time. */
export interface DirectoryEntry {
  action: string;
  performedBy: { id: string; fullName: string; role: ActorKind };
  timestamp: Date;
}

/**
 * How long this instance trusts that a code or a person it wrote is still as it wrote it: within
 * it, their entries write nothing more (a sign-in is one insert, not three writes); past it, the
 * next entry writes again, so a directory restored, or renamed by another instance, is mended.
 */
const KNOWN_FOR_MS = 10 * 60_000;
/** People this instance remembers at most (customers are many); past it, it starts again. */
const MAX_KNOWN = 10_000;

/**
 * The trail's directory: the action codes and the authors its entries hold, one row each, written
 * as entries are recorded (`audit_actions`, `audit_people`). The trail's filters read these few
 * rows instead of grouping years of entries; `migrateAuditDirectory` fills them from the entries
 * written before. Every write is an idempotent upsert by the row's `_id`, so two API instances
 * noting the same code or person at once leave one row, named as the latest entry names them.
 */
@Injectable()
export class AuditDirectoryRepository {
  private readonly known = new Map<string, { as: string; until: number }>();

  constructor(
    @InjectModel(AuditAction.name) private readonly actionRows: Model<AuditAction>,
    @InjectModel(AuditPerson.name) private readonly peopleRows: Model<AuditPerson>,
  ) {}

  /** Notes an entry's action and author, unless this instance noted them lately as they are. */
  async note(entry: DirectoryEntry): Promise<void> {
    const { id, fullName, role } = entry.performedBy;
    const writes: Promise<void>[] = [];
    const action = `action:${entry.action}`;
    if (!this.isKnown(action, ''))
      writes.push(
        this.writeAction(entry.action, entry.timestamp).then(() => this.remember(action, '')),
      );
    // An erased person's own last entries carry no name: they are not listed again.
    const person = `person:${id}`;
    const as = `${role}\n${fullName}`;
    if (fullName !== ANONYMOUS_NAME && !this.isKnown(person, as))
      writes.push(
        this.writePerson(id, fullName, role, entry.timestamp).then(() => this.remember(person, as)),
      );
    await Promise.all(writes);
  }

  /** Every action code, sorted (a few dozen rows). */
  async actions(): Promise<string[]> {
    const rows = await this.actionRows.find({}).select({ _id: 1 }).lean<{ _id: string }[]>();
    return rows.map((r) => r._id).sort();
  }

  /** The authors of these roles by name (then id), at most `max`; each role read from its index. */
  async people(roles: readonly ActorKind[], max: number): Promise<AuditPersonDto[]> {
    const found = await Promise.all(
      roles.map((role) =>
        this.peopleRows
          .find({ role })
          .sort({ fullName: 1, _id: 1 })
          .limit(max)
          .select({ fullName: 1, role: 1 })
          .lean<{ _id: string; fullName: string; role: ActorKind }[]>(),
      ),
    );
    return found
      .flat()
      .sort((a, b) =>
        a.fullName !== b.fullName ? (a.fullName < b.fullName ? -1 : 1) : a._id < b._id ? -1 : 1,
      )
      .slice(0, max)
      .map((p) => ({ id: p._id, fullName: p.fullName, role: p.role }));
  }

  /** Removes these people (an erasure): the trail's filter names them no more. */
  async forget(ids: string[]): Promise<void> {
    if (!ids.length) return;
    for (const id of ids) this.known.delete(`person:${id}`);
    await this.peopleRows.deleteMany({ _id: { $in: ids } });
  }

  private async writeAction(code: string, at: Date): Promise<void> {
    try {
      await this.actionRows.updateOne(
        { _id: code },
        { $setOnInsert: { firstAt: at } },
        { upsert: true },
      );
    } catch (error) {
      // Another instance inserted it first: the one row is there.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /**
   * The person as this entry names them, unless a later entry already did. A row with a later
   * `at` does not match, so the upsert's insert hits the `_id` and fails: nothing to write. Another
   * instance inserting the same person at once fails it too: then this entry's name is set over
   * theirs if it is the later one.
   */
  private async writePerson(id: string, fullName: string, role: ActorKind, at: Date) {
    const filter = { _id: id, at: { $lte: at } };
    const update = { $set: { fullName, role, at } };
    try {
      await this.peopleRows.updateOne(filter, update, { upsert: true });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      await this.peopleRows.updateOne(filter, update);
    }
  }

  private isKnown(key: string, as: string): boolean {
    const known = this.known.get(key);
    return !!known && known.as === as && known.until > Date.now();
  }

  private remember(key: string, as: string): void {
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.set(key, { as, until: Date.now() + KNOWN_FOR_MS });
  }
}
