import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import type { TaxType } from '@spc/shared-contracts';

/** The collection of the shop's tax settings: one document, `_id: 'tax'`. */
export const TAX_SETTINGS_COLLECTION = 'tax_settings';

/** The tax settings as saved; a field the shop never saved is absent. */
export interface SavedTaxSettings {
  defaultTaxType?: TaxType | null;
  updatedAt?: Date;
}

interface TaxSettingsDoc extends SavedTaxSettings {
  _id: 'tax';
}

/** The only place that touches the tax settings document. */
@Injectable()
export class TaxSettingsRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** The saved settings; null when the shop has never saved any. */
  async find(): Promise<SavedTaxSettings | null> {
    const doc = await this.settings().findOne({ _id: 'tax' });
    if (!doc) return null;
    const { _id, ...saved } = doc;
    return saved;
  }

  /** Saves the default tax type; answers the settings as they were before (null: none saved). */
  async setDefaultTaxType(defaultTaxType: TaxType | null): Promise<SavedTaxSettings | null> {
    const before = await this.settings().findOneAndUpdate(
      { _id: 'tax' },
      { $set: { defaultTaxType, updatedAt: new Date() } },
      { upsert: true, returnDocument: 'before' },
    );
    if (!before) return null;
    const { _id, ...saved } = before;
    return saved;
  }

  private settings(): mongo.Collection<TaxSettingsDoc> {
    return this.connection.db!.collection<TaxSettingsDoc>(TAX_SETTINGS_COLLECTION);
  }
}
