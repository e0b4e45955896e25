import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ProductsRepository } from '../catalog/products.repository';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { EtimsConfig } from '../config/etims-config';
import { EtimsDocumentsRepository, type EtimsDocument } from './etims-documents.repository';
import { EtimsItemsRepository } from './etims-items.repository';
import { EtimsQueue } from './etims-queue.service';
import { registrarOf } from './etims-request';
import {
  movesGoodsOut,
  STOCK_RETURN_IN,
  STOCK_SALE_OUT,
  stockMovement,
} from './etims-stock-request';
import { EtimsStockRepository, type EtimsStockMove } from './etims-stock.repository';
import type { OscuClient } from './oscu-client';

/** Signed documents read again behind the cursor: instances' clocks and late saves. */
const OVERLAP_MS = 10 * 60_000;
const PAGE = 200;
const MAX_BACKOFF_MS = 60 * 60_000;

const cents = (kes: number) => Math.round(kes * 100);

/**
 * The stock movements OSCU asks for after the sales they follow (issue 45, docs/etims.md "Stock"):
 * each signed document that moved seedlings out is told to KRA as a sale out (`insertStockIO`
 * type 11), a sale credited in whole as their return (03), each followed by what is left of its
 * items (`saveStockMaster`: the product's seedlings in whole units). Never in the way of a sale or
 * of signing: the sweep `etims.stock-due` reads the documents signed since it last looked and sends
 * their movements in number order; KRA's number for a movement (`sarNo`) is the signed document's,
 * so a movement resent after a crash is answered as a duplicate, never recorded twice.
 */
@Injectable()
export class EtimsStock implements OnModuleInit {
  private readonly logger = new Logger(EtimsStock.name);
  private readonly settings: EtimsConfig | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly queue: EtimsQueue,
    private readonly documents: EtimsDocumentsRepository,
    private readonly moves: EtimsStockRepository,
    private readonly items: EtimsItemsRepository,
    private readonly products: ProductsRepository,
    private readonly scheduler: Scheduler,
  ) {
    this.settings = config.etims;
  }

  async onModuleInit(): Promise<void> {
    if (!this.settings) return;
    await this.moves.ensureIndexes();
    this.scheduler.declare({
      name: 'etims.stock-due',
      everyMs: this.settings.sendEveryMs,
      runsOn: 'one',
      atStart: true,
      run: (now) => this.sweep(now),
    });
  }

  /** Finds the movements of documents signed since the last sweep, then sends what is due. */
  async sweep(now = new Date()): Promise<number> {
    const sequence = this.queue.sequence;
    if (!sequence) return 0;
    try {
      await this.collect(sequence);
      return await this.send(sequence, now);
    } catch (error) {
      this.logger.error(`eTIMS stock movements: ${(error as Error).message}`);
      return 0;
    }
  }

  private async collect(sequence: string): Promise<void> {
    const cursor = await this.moves.cursor(sequence);
    let since = new Date((cursor?.getTime() ?? 0) - OVERLAP_MS);
    for (;;) {
      const page = await this.documents.signedSince(sequence, since, PAGE);
      if (!page.length) return;
      const keys = page.flatMap((d) => [d._id, ...(d.original ? [returnKey(d.original)] : [])]);
      const have = await this.moves.existing(keys);
      for (const doc of page) await this.movementOf(doc, have);
      const last = page[page.length - 1]!.updatedAt;
      await this.moves.advance(sequence, last);
      if (page.length < PAGE || last.getTime() === since.getTime()) return;
      since = last;
    }
  }

  /** Writes the movement a signed document makes, if it makes one and it is not written yet. */
  private async movementOf(doc: EtimsDocument, have: Set<string>): Promise<void> {
    // Due from the signing on, so the sweep that finds it sends it.
    const base = { sequence: doc.sequence, createdAt: new Date(), nextTryAt: doc.updatedAt };
    if (movesGoodsOut(doc)) {
      if (have.has(doc._id)) return;
      await this.moves.add({
        ...base,
        _id: doc._id,
        document: doc._id,
        sarNo: doc.invcNo,
        request: stockMovement(doc, STOCK_SALE_OUT),
        state: 'queued',
      });
      return;
    }
    if (doc.kind !== 'credit-note' || !doc.original || have.has(returnKey(doc.original))) return;
    // The goods come back when their sale is credited in whole (the order cancelled before it left
    // the beds); a part credit note is money only. The credit note that completes it numbers it.
    const original = await this.documents.find(doc.original);
    if (!original || original.state !== 'signed' || !movesGoodsOut(original)) return;
    const credits = (await this.documents.creditsOf(original._id)).filter(
      (c) => c.state === 'signed',
    );
    const credited = credits.reduce((n, c) => n + cents(c.request.totAmt), 0);
    if (credited < cents(original.request.totAmt)) return;
    // A price corrected (an invoice waived for its price) brings no seedling back.
    if (credits.some((c) => c.input.returnsGoods === false)) return;
    const completing = credits[credits.length - 1]!;
    await this.moves.add({
      ...base,
      _id: returnKey(original._id),
      document: completing._id,
      sarNo: completing.invcNo,
      request: stockMovement(
        {
          invcNo: completing.invcNo,
          request: { ...original.request, salesDt: completing.request.salesDt },
        },
        STOCK_RETURN_IN,
        original.invcNo,
      ),
      state: 'queued',
    });
  }

  /** Sends the due movements in number order; stops at the first OSCU does not answer. */
  private async send(sequence: string, now: Date): Promise<number> {
    const due = await this.moves.due(sequence, now, PAGE);
    if (!due.length) return 0;
    const client = await this.queue.oscu();
    if (!client) return 0;
    let sent = 0;
    for (const move of due) {
      const outcome = await client.saveStockIo(move.request);
      if (outcome.kind === 'unreachable') {
        const wait = Math.min(MAX_BACKOFF_MS, this.settings!.retryMs * 2 ** move.attempts);
        await this.moves.settle(move._id, {
          state: 'queued',
          lastCode: null,
          lastMessage: outcome.message,
          nextTryAt: new Date(Date.now() + wait),
        });
        break;
      }
      if (outcome.kind === 'rejected') {
        this.logger.warn(
          `KRA refused stock movement ${move.sarNo} (${move._id}): ${outcome.code} ${outcome.message}`,
        );
        await this.moves.settle(move._id, {
          state: 'failed',
          lastCode: outcome.code,
          lastMessage: outcome.message,
        });
        continue;
      }
      // Recorded now, or before (a duplicate: a crash kept the first answer from being saved).
      await this.stockLeft(client, move);
      await this.moves.settle(move._id, {
        state: 'sent',
        lastCode: outcome.kind === 'ok' ? '000' : '994',
        lastMessage: outcome.kind === 'ok' ? null : outcome.message,
        sentAt: new Date(),
      });
      sent++;
    }
    return sent;
  }

  /**
   * What is left of each item the movement names: its product's seedlings in whole units (a tray
   * of 50 with 120 seedlings left is 2; below zero, 0); a product gone from the catalogue has
   * none. A set, not a change: sending it twice is harmless.
   */
  private async stockLeft(client: OscuClient, move: EtimsStockMove): Promise<void> {
    // The movement names goods only (`stockMovement` left the services out).
    for (const line of move.request.itemList) {
      if (!line.itemCd) continue;
      const item = await this.items.byCode(move.sequence, line.itemCd);
      const [, productId, unitId] = item?.key.split(':') ?? [];
      const product = productId ? await this.products.findFields(productId) : null;
      const unit = product?.units?.find((u) => u._id === unitId);
      // A gate sale may take the stock below zero (issue 47, flagged short until counted): what
      // is left is none, never a negative KRA refuses (which would leave its figure stale).
      const left = Math.max(0, product?.productQuantity ?? 0);
      const rsdQty = unit ? Math.floor(left / Math.max(1, unit.seedlings)) : 0;
      const outcome = await client.saveStockMaster({
        itemCd: line.itemCd,
        rsdQty,
        ...registrarOf(null),
      });
      if (outcome.kind === 'rejected' || outcome.kind === 'unreachable')
        this.logger.warn(
          `eTIMS stock left of ${line.itemCd} not saved: ${outcome.kind === 'rejected' ? `${outcome.code} ` : ''}${outcome.message}`,
        );
    }
  }
}

/** The key of a sale's return movement. */
export const returnKey = (source: string) => `return:${source}`;
