import { createHash } from 'node:crypto';
import {
  ConflictException,
  Inject,
  Injectable,
  UnprocessableEntityException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { canonicalEmail, canonicalPhone } from '../common/identifiers';
import { personalKeys, type PersonalKey } from '../common/personal-key';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { OrderRecord } from './order.types';
import { OrdersRepository } from './orders.repository';
import { OrderIdempotency, TillSaleKey } from './schemas/order.schema';

/** What a placement's Idempotency-Key answers: place it (under `key`), or the order it placed. */
export type KeyClaim = { key?: string; replay?: undefined } | { replay: OrderRecord };

/**
 * Whose Idempotency-Keys a guest's are: their phone and e-mail, by the keyed hash (`guest:<hash>`),
 * so the stored key names nobody.
 */
export function guestKeyOwner(
  personalKey: PersonalKey,
  contact: { phoneNumber: string; email: string },
): string {
  return personalKey(
    `guest:${canonicalPhone(contact.phoneNumber)}\n${canonicalEmail(contact.email)}`,
  );
}

/**
 * Idempotency-Key for placing orders: the same key and the same order answer the order placed the
 * first time; the same key for another order is refused (422); a key still being placed is 409.
 * `keys` is the store: `order_idempotency` (24 h TTL) for orders, `till_sale_keys` (no expiry) for
 * till sales (`TillSaleKeys`).
 */
@Injectable()
export class PlacementKeys {
  private readonly personalKey: PersonalKey;

  constructor(
    protected readonly orders: OrdersRepository,
    @InjectModel(OrderIdempotency.name) private readonly keys: Model<OrderIdempotency>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.personalKey = personalKeys(config);
  }

  async claim(
    idempotencyKey: string | undefined,
    accountId: string | undefined,
    contact: { phoneNumber: string; email: string },
    order: unknown,
  ): Promise<KeyClaim> {
    if (!idempotencyKey) return {};
    // A guest's keys are their own: scoped by the order's phone and e-mail, not shared by all guests.
    const owner = accountId ?? guestKeyOwner(this.personalKey, contact);
    const key = `${owner}:${idempotencyKey}`;
    const fingerprint = fingerprintOf(order);
    const claim = await this.claimKey(key, fingerprint);
    if (claim.claimed) return { key };
    if (claim.fingerprint !== fingerprint) throw keyReused();
    const existing = claim.orderId ? await this.orders.findById(claim.orderId) : null;
    if (existing) return { replay: existing };
    throw new ConflictException({
      message: 'This order is still being placed. Please wait a moment and try again.',
      code: 'IN_PROGRESS',
    });
  }

  /** The order placed under this key by this account, or null (none yet, or still placing). */
  async placedUnder(idempotencyKey: string, accountId: string): Promise<OrderRecord | null> {
    const claim = await this.keys
      .findOne({ key: `${accountId}:${idempotencyKey}` })
      .lean<OrderIdempotency>();
    return claim?.orderId ? this.orders.findById(claim.orderId) : null;
  }

  /**
   * The order placed under this key by this account if it is this same order (422 when the key
   * was used for a different one), or null (none placed under it yet, or still placing).
   */
  async placedUnderSame(
    idempotencyKey: string,
    accountId: string,
    order: unknown,
  ): Promise<OrderRecord | null> {
    const claim = await this.keys
      .findOne({ key: `${accountId}:${idempotencyKey}` })
      .lean<OrderIdempotency>();
    if (!claim) return null;
    if (claim.fingerprint !== fingerprintOf(order)) throw keyReused();
    return claim.orderId ? this.orders.findById(claim.orderId) : null;
  }

  async complete(key: string | undefined, orderId: string): Promise<void> {
    if (key) await this.keys.updateOne({ key }, { $set: { orderId } });
  }

  async release(key: string | undefined): Promise<void> {
    if (key) await this.keys.deleteOne({ key, orderId: null });
  }

  /** Keys never used for an order (their placement died) free again after `before`. */
  async releaseStale(before: Date): Promise<void> {
    await this.keys.deleteMany({ orderId: null, createdAt: { $lt: before } });
  }

  /** The key store (for a subclass's own rules). */
  protected get store(): Model<OrderIdempotency> {
    return this.keys;
  }

  /** Claims the key for this placement; on a repeat, answers what the first claim recorded. */
  private async claimKey(
    key: string,
    fingerprint: string,
  ): Promise<{ claimed: true } | { claimed: false; fingerprint: string; orderId: string | null }> {
    try {
      await this.keys.create({ key, fingerprint, orderId: null, createdAt: new Date() });
      return { claimed: true };
    } catch (error) {
      const existing = await this.keys.findOne({ key }).lean<OrderIdempotency>();
      if (!existing) throw error;
      return { claimed: false, fingerprint: existing.fingerprint, orderId: existing.orderId };
    }
  }
}

const fingerprintOf = (order: unknown) =>
  createHash('sha256').update(JSON.stringify(order)).digest('hex');

const keyReused = () =>
  new UnprocessableEntityException({
    message: 'This Idempotency-Key was already used for a different order',
    code: 'IDEMPOTENCY_KEY_REUSED',
  });

/**
 * The till sales' keys (issue 47): the same rules on a store that never expires, so a sale sent
 * again days later (a till offline over a weekend) answers the first sale.
 */
@Injectable()
export class TillSaleKeys extends PlacementKeys {
  constructor(
    orders: OrdersRepository,
    @InjectModel(TillSaleKey.name) keys: Model<OrderIdempotency>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(orders, keys, config);
  }

  /**
   * A stale key with no order: completed with the gate sale placed under it when there is one (a
   * crash between the placement and the key's completion: a second sale under it would take the
   * stock twice), left while that sale is still being placed or undone, else released.
   */
  override async releaseStale(before: Date): Promise<void> {
    const stale = await this.store
      .find({ orderId: null, createdAt: { $lt: before } })
      .lean<OrderIdempotency[]>();
    for (const claim of stale) {
      const order = await this.orders.gateSaleUnderKey(claim.key);
      if (order?.placement === 'placed')
        await this.store.updateOne(
          { key: claim.key, orderId: null },
          { $set: { orderId: order._id } },
        );
      else if (!order) await this.store.deleteOne({ key: claim.key, orderId: null });
    }
  }
}
