import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { EtimsConfig } from '../config/etims-config';
import { EtimsItemsRepository, type EtimsItem } from './etims-items.repository';
import type { OscuClient } from './oscu-client';
import type { OscuItemType, OscuRegistrar, OscuSalesItem } from './oscu.types';

/** Packing and quantity units of every item of the shop (docs/etims.md, saveItem). */
export const ITEM_UNITS = { pkgUnitCd: 'NT', qtyUnitCd: 'U' } as const;

/** How long one attempt may take to register an item before another may. */
const REGISTER_LEASE_MS = 2 * 60_000;

/** What registering a document's items came to. */
export type ItemsOutcome =
  | { kind: 'ok'; registered: number }
  /** KRA refused an item: the document is failed with KRA's code and this message. */
  | { kind: 'rejected'; code: string; message: string }
  /** OSCU did not answer: the document waits and is tried again. */
  | { kind: 'unreachable'; message: string }
  /** Another attempt is registering one of its items now: the document is tried again shortly. */
  | { kind: 'busy'; message: string };

/**
 * Each sale unit of a product is its own eTIMS item (issue 45): its code is allocated once per
 * branch and kept (`etims_items`), and before a document is sent each of its lines' items is
 * registered (`saveItem`) if it never was, or if its name, classification or tax type changed
 * since (a price alone does not: a line carries its own price). A registration is one attempt's
 * at a time (a claim with a lease), so two instances never register one item at once.
 */
@Injectable()
export class EtimsItems implements OnModuleInit {
  private readonly logger = new Logger(EtimsItems.name);
  private readonly settings: EtimsConfig | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly items: EtimsItemsRepository,
  ) {
    this.settings = config.etims;
  }

  private get sequence(): string {
    return `${this.settings!.pin}/${this.settings!.branch}`;
  }

  async onModuleInit(): Promise<void> {
    if (this.settings) await this.items.ensureIndexes();
  }

  /**
   * The item code of `key` (`product:<productId>:<unitId>`, `delivery`), allocated the first time;
   * `listPrice` is the unit's price now (its registration's default price). Null when eTIMS is off.
   */
  async codeOf(key: string, itemTyCd: OscuItemType, listPrice: number): Promise<string | null> {
    if (!this.settings) return null;
    const item = await this.items.allocate(this.sequence, key, {
      itemTyCd,
      ...ITEM_UNITS,
      listPrice,
    });
    return item.itemCd;
  }

  /** The item of a key, when it has one (tests and the back office read what KRA was told). */
  byKey(key: string): Promise<EtimsItem | null> {
    return this.settings ? this.items.byKey(this.sequence, key) : Promise.resolve(null);
  }

  /**
   * Registers with KRA each item of `lines` that is ours (allocated here; codes from elsewhere are
   * left alone) and not registered as the line has it. Stops at the first refusal, silence or
   * claim held by another attempt.
   */
  async ensureRegistered(
    client: OscuClient,
    lines: readonly OscuSalesItem[],
    registrar: OscuRegistrar,
  ): Promise<ItemsOutcome> {
    let registered = 0;
    const seen = new Set<string>();
    for (const line of lines) {
      if (seen.has(line.itemCd)) continue;
      seen.add(line.itemCd);
      const item = await this.items.byCode(this.sequence, line.itemCd);
      if (!item) continue;
      const r = item.registered;
      if (
        r &&
        r.itemNm === line.itemNm &&
        r.itemClsCd === line.itemClsCd &&
        r.taxTyCd === line.taxTyCd
      )
        continue;
      const by = randomUUID();
      const now = new Date();
      const claimed = await this.items.claim(
        item._id,
        by,
        now,
        new Date(now.getTime() + REGISTER_LEASE_MS),
      );
      if (!claimed)
        return { kind: 'busy', message: `eTIMS item ${item.itemCd} is being registered` };
      const dftPrc = claimed.listPrice ?? line.prc;
      const outcome = await client.saveItem({
        itemCd: item.itemCd,
        itemClsCd: line.itemClsCd,
        itemTyCd: item.itemTyCd,
        itemNm: line.itemNm,
        orgnNatCd: 'KE',
        pkgUnitCd: item.pkgUnitCd,
        qtyUnitCd: item.qtyUnitCd,
        taxTyCd: line.taxTyCd,
        dftPrc,
        isrcAplcbYn: 'N',
        useYn: 'Y',
        ...registrar,
      });
      if (outcome.kind === 'ok' || outcome.kind === 'duplicate') {
        await this.items.registered(item._id, by, {
          itemNm: line.itemNm,
          itemClsCd: line.itemClsCd,
          taxTyCd: line.taxTyCd,
          dftPrc,
          at: new Date(),
        });
        registered++;
        continue;
      }
      await this.items.release(item._id, by);
      if (outcome.kind === 'rejected') {
        this.logger.warn(
          `KRA refused item ${item.itemCd} (${line.itemNm}): ${outcome.code} ${outcome.message}`,
        );
        return {
          kind: 'rejected',
          code: outcome.code,
          message: `Item ${item.itemCd} (${line.itemNm}) was not registered: ${outcome.message}`,
        };
      }
      return { kind: 'unreachable', message: outcome.message };
    }
    return { kind: 'ok', registered };
  }
}
