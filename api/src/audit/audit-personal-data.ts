import { Injectable } from '@nestjs/common';
import {
  ANONYMOUS_NAME,
  NO_PERSONAL_DATA,
  OwnsPersonalData,
  scrubText,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { AuditDirectoryRepository } from './audit-directory.repository';
import { AuditRepository } from './audit.repository';

const PAGE = 500;

/**
 * The audit trail names who did what: a customer's sign-ins, downloads and cancels carry their name,
 * and staff's entries about a customer's orders may quote it. Exported: the customer's own entries
 * (`activity`: what they did, when). Erased: each entry stays (the action, the time, the ids), the
 * person's name, e-mail and phone leave its texts and labels ("Deleted customer"), and their row
 * leaves the trail's directory of people (`audit_people`). The directory is not exported: it holds
 * the name their own entries (`activity`) and their account already give.
 */
@Injectable()
@OwnsPersonalData()
export class AuditPersonalData implements PersonalDataOwner {
  readonly collections = {
    audit_logs: "who did what: a customer's name on their own entries, names quoted in texts",
    audit_actions: NO_PERSONAL_DATA,
    audit_people:
      "the trail's filter of people: each author's name and role as their latest entry names them (a customer's too)",
  };

  constructor(
    private readonly logs: AuditRepository,
    private readonly directory: AuditDirectoryRepository,
  ) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    if (!subject.accountId) return { activity: [] };
    const activity: unknown[] = [];
    for await (const doc of this.logs.ofPerson(subject.accountId, [])) {
      activity.push({
        action: doc.action,
        message: doc.message,
        timestamp: new Date(doc.timestamp).toISOString(),
      });
    }
    return { activity };
  }

  async erase(subject: DataSubject): Promise<void> {
    const about = [
      ...(subject.accountId ? [subject.accountId] : []),
      ...subject.orderIds,
      ...subject.otherIds,
    ];
    const me = subject.accountId;
    // The names and addresses the trail knew them by: a name changed in the profile, an e-mail the
    // admin corrected, are on their older entries (their own, and those labelled with the account).
    const known = new Set<string>();
    for await (const doc of this.logs.ofPerson(me, me ? [me] : [])) {
      if (me && doc.performedBy.id === me) known.add(doc.performedBy.fullName);
      if (me && doc.target?.id === me && doc.target.label) known.add(doc.target.label);
    }
    known.delete(ANONYMOUS_NAME);
    const person: DataSubject = { ...subject, names: [...subject.names, ...known] };
    let changes: Parameters<AuditRepository['rewrite']>[0] = [];
    for await (const doc of this.logs.ofPerson(me, about)) {
      const mine = !!me && doc.performedBy.id === me;
      // A clerk's name stays on the clerk's entries, even if the person typed it as their own.
      const words = mine
        ? person
        : {
            ...person,
            names: person.names.filter(
              (n) => n.trim().toLowerCase() !== doc.performedBy.fullName.trim().toLowerCase(),
            ),
          };
      const set: (typeof changes)[number]['set'] = {};
      const message = scrubText(doc.message, words);
      if (message !== doc.message) set.message = message;
      if (mine && doc.performedBy.fullName !== ANONYMOUS_NAME)
        set['performedBy.fullName'] = ANONYMOUS_NAME;
      if (doc.target?.label) {
        const label =
          me && doc.target.id === me ? ANONYMOUS_NAME : scrubText(doc.target.label, words);
        if (label !== doc.target.label) set['target.label'] = label;
      }
      if (Object.keys(set).length) changes.push({ id: doc._id, set });
      if (changes.length >= PAGE) {
        await this.logs.rewrite(changes);
        changes = [];
      }
    }
    await this.logs.rewrite(changes);
    // Their entries now say "Deleted customer": the filter's people name them no more either.
    if (me) await this.directory.forget([me]);
  }
}
