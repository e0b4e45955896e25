import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { MAIL_LOG_COLLECTION } from '../mail/mail-log';
import { MAIL_OUTBOX_COLLECTION } from '../mail/mail-outbox.repository';
import { PRIVACY_DEFAULTS, type PrivacySettings } from './privacy-defaults';

type SettingsChanges = Partial<Omit<PrivacySettings, 'updatedAt'>>;

/** Each period in the audit trail's words, with its unit. */
const PERIODS: { key: keyof SettingsChanges; words: string; unit: string }[] = [
  { key: 'taxRetentionYears', words: 'orders and payments kept', unit: 'years' },
  { key: 'smsOutboxDays', words: 'texts sent kept', unit: 'days' },
  { key: 'mailLogDays', words: 'e-mails sent kept', unit: 'days' },
  { key: 'contactMessageDays', words: 'contact messages kept', unit: 'days' },
  { key: 'requestDueDays', words: "guests' requests answered within", unit: 'days' },
];

/**
 * What a save changed, in words: each period before → after, the controller's name before →
 * after, and "the notice's text" (not the text itself). Empty when nothing changed.
 */
export function describeSettingsChange(before: PrivacySettings, after: PrivacySettings): string[] {
  const changes = PERIODS.filter(({ key }) => before[key] !== after[key]).map(
    ({ key, words, unit }) => `${words} ${String(before[key])} → ${String(after[key])} ${unit}`,
  );
  if (before.controllerName !== after.controllerName)
    changes.push(`data controller "${before.controllerName}" → "${after.controllerName}"`);
  if (before.noticeText !== after.noticeText) changes.push("the notice's text");
  return changes;
}

interface SettingsDoc extends Partial<PrivacySettings> {
  _id: 'privacy';
}

const DAY_S = 24 * 60 * 60;

/** The settings a saved document says, the defaults for what it does not (or for no document). */
function withDefaults(doc: SettingsDoc | null): PrivacySettings {
  const { _id, ...saved } = doc ?? { _id: 'privacy' };
  return { ...PRIVACY_DEFAULTS, updatedAt: null, ...saved };
}

/** The records pruned after a period the shop sets: collection, date field, setting. */
const PRUNED: { collection: string; field: string; days: keyof PrivacySettings }[] = [
  { collection: 'sms_outbox', field: 'createdAt', days: 'smsOutboxDays' },
  { collection: MAIL_LOG_COLLECTION, field: 'sentAt', days: 'mailLogDays' },
  // The queue's records go with the log's: the e-mails to send and sent, kept as long.
  { collection: MAIL_OUTBOX_COLLECTION, field: 'createdAt', days: 'mailLogDays' },
  { collection: 'contact_messages', field: 'createdAt', days: 'contactMessageDays' },
];

/**
 * The privacy notice's text and the retention periods (one `privacy_settings` document; the
 * defaults until the shop saves its own). Each period of a pruned record is a TTL index on its
 * date, made at start-up and changed (collMod) when the shop changes the period.
 */
@Injectable()
export class PrivacySettingsService implements OnModuleInit {
  private readonly logger = new Logger('Privacy');

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly audit: AuditService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.applyRetention(await this.get()).catch((e: Error) =>
      this.logger.warn(`Could not set the retention indexes: ${e.message}`),
    );
  }

  async get(): Promise<PrivacySettings> {
    return withDefaults(await this.settings().findOne({ _id: 'privacy' }));
  }

  /** Saves the admin's changes, applies the periods, and records in the audit trail what changed. */
  async update(actor: Principal, changes: SettingsChanges): Promise<PrivacySettings> {
    const given = Object.fromEntries(
      Object.entries(changes).filter(([, value]) => value !== undefined && value !== null),
    );
    // The settings as they were: the trail says what this save changed, before → after.
    const before = await this.settings().findOneAndUpdate(
      { _id: 'privacy' },
      { $set: { ...given, updatedAt: new Date() } },
      { upsert: true, returnDocument: 'before' },
    );
    const saved = await this.get();
    await this.applyRetention(saved);
    const changed = describeSettingsChange(withDefaults(before), saved);
    if (changed.length)
      await this.audit.record(
        actor,
        'privacy.settings.update',
        `${actor.fullName} changed the privacy settings: ${changed.join('; ')}`,
        { type: 'privacy-settings', id: 'privacy', label: changed.join('; ') },
      );
    return saved;
  }

  /** Makes each pruned collection's TTL index say the period set (creating it the first time). */
  private async applyRetention(settings: PrivacySettings): Promise<void> {
    const db = this.connection.db!;
    for (const { collection, field, days } of PRUNED) {
      const seconds = Number(settings[days]) * DAY_S;
      const name = `retention_${field}`;
      const existing = await db
        .collection(collection)
        .indexes()
        .catch(() => [] as mongo.IndexDescriptionInfo[]);
      const index = existing.find((i) => i.name === name);
      if (!index) {
        await db
          .collection(collection)
          .createIndex({ [field]: 1 }, { name, expireAfterSeconds: seconds });
      } else if (index.expireAfterSeconds !== seconds) {
        await db.command({
          collMod: collection,
          index: { name, expireAfterSeconds: seconds },
        });
      }
    }
  }

  /** The expiry, in seconds, of each pruned collection's retention index (for the tests and checks). */
  async retentionIndexes(): Promise<Record<string, number | undefined>> {
    const db = this.connection.db!;
    const out: Record<string, number | undefined> = {};
    for (const { collection, field } of PRUNED) {
      const indexes = await db.collection(collection).indexes();
      out[collection] = indexes.find((i) => i.name === `retention_${field}`)?.expireAfterSeconds;
    }
    return out;
  }

  private settings(): mongo.Collection<SettingsDoc> {
    return this.connection.db!.collection<SettingsDoc>('privacy_settings');
  }
}
