import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  LOSS_REASON_WORDS,
  STOCK_LIMITS,
  STOCK_MESSAGES,
  type LossReason,
  type StockReason,
} from '@spc/shared-contracts';
import { AuditService } from '../audit/audit.service';
import { pageRequest, totalPages } from '../common/pagination';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { ProductView } from '../catalog/catalog.types';
import { CatalogueEvents } from '../catalog/read-model/catalogue-events';
import { PRODUCT_NOT_FOUND } from '../catalog/products.service';
import { ProductsRepository } from '../catalog/products.repository';
import type { MovementMeta, StockChange } from './stock-ledger';
import { StockLedgerRepository, type StockMovementView } from './stock-ledger.repository';
import { StockLevelsRepository } from './stock-levels.repository';

export type StockLevel = 'ok' | 'low' | 'out';

export interface StockStatus {
  lowStockThreshold: number | null;
  threshold: number;
  level: StockLevel;
}

export interface LowStockItem {
  _id: string;
  productName: string;
  productQuantity: number;
  threshold: number;
  level: 'low' | 'out';
  /** The stock in whole larger units ("2 × Tray of 50"); empty when sold singly only. */
  inUnits: string;
}

/** The most products the low-stock answer names (the counts cover all of them). */
export const LOW_STOCK_LIST_MAX = 200;

const seedlings = (n: number) => `${n} seedling${n === 1 ? '' : 's'}`;

/** Out at 0; low at or below the threshold in force; ok above it. */
export function levelOf(quantity: number, threshold: number): StockLevel {
  if (quantity <= 0) return 'out';
  return quantity <= threshold ? 'low' : 'ok';
}

/**
 * The stock ledger as people use it: a product's movements, losses and counts recorded by staff
 * (each with its movement, in the same atomic update as the stock, and an audit entry in words),
 * and which products are low or out of stock.
 */
@Injectable()
export class StockService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly ledger: StockLedgerRepository,
    private readonly levels: StockLevelsRepository,
    private readonly audit: AuditService,
    private readonly catalogue: CatalogueEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get defaultThreshold(): number {
    return this.config.stock.lowStockThreshold;
  }

  async movements(
    productId: string,
    query: { reason?: StockReason[]; page?: number; limit?: number },
  ) {
    const product = await this.products.findById(productId);
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    const { page, limit, skip } = pageRequest(query, STOCK_LIMITS.movementsPageSize);
    const [{ items, total }, stock] = await Promise.all([
      this.ledger.movementsOf(productId, query.reason, skip, limit),
      this.statusOf(product),
    ]);
    return {
      product,
      stock,
      movements: items.map(view),
      total,
      page,
      limit,
      totalPages: totalPages(total, limit),
    };
  }

  /** Seedlings lost (died, damaged, given away): the stock goes down by that many, never below 0. */
  async recordLoss(
    actor: Principal,
    productId: string,
    dto: { quantity: number; reason: LossReason; note?: string },
  ) {
    const note = dto.note ?? '';
    const done = await this.adjust(
      productId,
      { by: -dto.quantity },
      { reason: dto.reason, by: actor, note },
    );
    if (!done) {
      const product = await this.products.findById(productId);
      if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
      throw new ConflictException({
        message: STOCK_MESSAGES.belowZero(product.productQuantity),
        code: 'STOCK_BELOW_ZERO',
      });
    }
    this.catalogue.changed();
    await this.audit.record(
      actor,
      'stock.loss',
      `${actor.fullName} recorded ${dto.quantity} ${done.product.productName} ` +
        `seedling${dto.quantity === 1 ? '' : 's'} as ${LOSS_REASON_WORDS[dto.reason]}` +
        `${note ? `: ${note}` : ''}`,
      { type: 'product', id: done.product._id, label: done.product.productName },
    );
    return { product: done.product, movement: done.movement ? view(done.movement) : null };
  }

  /** A count of the shed: the stock becomes what was counted; the difference is the correction. */
  async recordCount(
    actor: Principal,
    productId: string,
    dto: { countedQuantity: number; note?: string },
  ) {
    const note = dto.note ?? '';
    const done = await this.adjust(
      productId,
      { to: dto.countedQuantity },
      { reason: 'correction', by: actor, note },
    );
    if (!done) throw new NotFoundException(PRODUCT_NOT_FOUND);
    this.catalogue.changed();
    const change = done.movement?.change ?? 0;
    const difference =
      change === 0
        ? 'as the stock said'
        : `the stock said ${dto.countedQuantity - change}: ${Math.abs(change)} ${change > 0 ? 'more' : 'fewer'}`;
    await this.audit.record(
      actor,
      'stock.count',
      `${actor.fullName} counted ${seedlings(dto.countedQuantity)} of ` +
        `${done.product.productName} (${difference})${note ? `: ${note}` : ''}`,
      { type: 'product', id: done.product._id, label: done.product.productName },
    );
    return { product: done.product, movement: done.movement ? view(done.movement) : null };
  }

  async setThreshold(actor: Principal, productId: string, threshold: number | null) {
    const doc = await this.levels.setLowStockThreshold(productId, threshold);
    if (!doc) throw new NotFoundException(PRODUCT_NOT_FOUND);
    const product = await this.products.view(doc);
    await this.audit.record(
      actor,
      'stock.threshold',
      threshold === null
        ? `${actor.fullName} set the low-stock threshold of ${product.productName} to the shop's ` +
            `default (${this.defaultThreshold})`
        : `${actor.fullName} set the low-stock threshold of ${product.productName} to ${threshold}`,
      { type: 'product', id: product._id, label: product.productName },
    );
    return { product, stock: await this.statusOf(product) };
  }

  /**
   * Products out of stock (first) or at or below their threshold, fewest left first: the first
   * LOW_STOCK_LIST_MAX of them, and how many are low and out in all.
   */
  async lowStock(): Promise<{
    products: LowStockItem[];
    defaultThreshold: number;
    lowCount: number;
    outCount: number;
  }> {
    const rows = await this.levels.lowStock(this.defaultThreshold);
    const products = rows.map((row) => ({
      ...row,
      level: (row.productQuantity <= 0 ? 'out' : 'low') as 'low' | 'out',
    }));
    const outCount = products.filter((p) => p.level === 'out').length;
    return {
      products: products.slice(0, LOW_STOCK_LIST_MAX),
      defaultThreshold: this.defaultThreshold,
      lowCount: products.length - outCount,
      outCount,
    };
  }

  /** A stock change with its movement, answered with the product as it is after it. */
  private async adjust(productId: string, change: StockChange, meta: MovementMeta) {
    const done = await this.ledger.adjustStock(productId, change, meta);
    return done && { product: await this.products.view(done.doc), movement: done.movement };
  }

  private async statusOf(product: ProductView): Promise<StockStatus> {
    const own = (await this.levels.lowStockThresholdOf(product._id)) ?? null;
    const threshold = own ?? this.defaultThreshold;
    return {
      lowStockThreshold: own,
      threshold,
      level: levelOf(product.productQuantity, threshold),
    };
  }
}

function view(movement: StockMovementView) {
  return {
    _id: movement._id,
    productId: movement.productId,
    productName: movement.productName,
    seq: movement.seq,
    reason: movement.reason,
    change: movement.change,
    quantityAfter: movement.quantityAfter,
    note: movement.note ?? '',
    by: movement.by ?? null,
    orderId: movement.orderId ?? null,
    purchaseNumber: movement.purchaseNumber ?? null,
    at: new Date(movement.at).toISOString(),
    short: movement.short === true,
  };
}
