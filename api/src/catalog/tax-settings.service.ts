import { Injectable } from '@nestjs/common';
import { TAX_TYPE_INFO, TAX_TYPES, taxTypeText, type TaxType } from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import { TaxSettingsRepository } from './tax-settings.repository';

/**
 * The shop's default tax type until an admin saves one: B, the standard rate, which the VAT Act
 * charges on a supply unless a schedule exempts or zero-rates it. A shop that is not registered for
 * VAT, or sells exempt seedlings, sets its own in the back office.
 */
export const INITIAL_DEFAULT_TAX_TYPE: TaxType = 'B';

export interface TaxSettings {
  defaultTaxType: TaxType | null;
  taxTypes: { code: TaxType; label: string; rate: number }[];
  updatedAt: string | null;
}

const typeWords = (type: TaxType | null) => (type ? taxTypeText(type) : 'none');

/** The shop's tax settings (one `tax_settings` document): the default tax type of its products. */
@Injectable()
export class TaxSettingsService {
  constructor(
    private readonly settings: TaxSettingsRepository,
    private readonly audit: AuditService,
  ) {}

  async get(): Promise<TaxSettings> {
    const saved = await this.settings.find();
    return {
      defaultTaxType: defaultOf(saved),
      taxTypes: TAX_TYPES.map((code) => ({ ...TAX_TYPE_INFO[code] })),
      updatedAt: saved?.updatedAt ? saved.updatedAt.toISOString() : null,
    };
  }

  /** The type a product without its own is taxed at; null: none (every product needs its own). */
  async defaultTaxType(): Promise<TaxType | null> {
    return defaultOf(await this.settings.find());
  }

  /** Saves the admin's default (null: none) and records in the audit trail what it was before. */
  async update(actor: Principal, defaultTaxType: TaxType | null): Promise<TaxSettings> {
    const before = defaultOf(await this.settings.setDefaultTaxType(defaultTaxType));
    if (before !== defaultTaxType) {
      const change = `${typeWords(before)} → ${typeWords(defaultTaxType)}`;
      await this.audit.record(
        actor,
        'tax.settings.update',
        `${actor.fullName} changed the shop's default tax type: ${change}`,
        { type: 'tax-settings', id: 'tax', label: change },
      );
    }
    return this.get();
  }
}

function defaultOf(saved: { defaultTaxType?: TaxType | null } | null): TaxType | null {
  return saved && saved.defaultTaxType !== undefined
    ? saved.defaultTaxType
    : INITIAL_DEFAULT_TAX_TYPE;
}
