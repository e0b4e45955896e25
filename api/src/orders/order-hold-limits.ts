import { BadRequestException, ConflictException, Inject, Injectable } from '@nestjs/common';
import { canonicalEmail, canonicalPhone, clientNetwork } from '../common/identifiers';
import { personalKeys, type PersonalKey } from '../common/personal-key';
import { holdSlots, type HoldDimension } from '../common/quota';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrderHoldSlotsRepository } from './order-hold-slots.repository';

/** Who an order is for and where the request came from: what the open-order caps count by. */
export interface OrderSource {
  phoneNumber: string;
  email: string;
  /** The signed-in customer placing it, if any. */
  accountId?: string;
  /** The client's network address (X-Forwarded-For behind a trusted proxy); absent in scripts. */
  clientAddress?: string;
}

/** A line as the unit limits see it: priced (its product and seedlings a unit) or not yet. */
interface UnitLine {
  quantity: number;
  seedlings?: number;
  productId?: string;
  productName?: string;
}

/** The stock one slot of a network's cap stands for: an order of 1-100 seedlings holds one. */
export const HOLD_BLOCK_UNITS = 100;

/**
 * Bounds the stock anyone can hold with orders nobody has paid for or confirmed (Pending and
 * unpaid, until UNPAID_ORDER_EXPIRY_HOURS cancels them):
 * - units per line and per order (ORDER_MAX_UNITS_PER_LINE, ORDER_MAX_UNITS_PER_ORDER);
 * - ORDER_MAX_OPEN_UNPAID orders per phone number (E.164, however typed), per e-mail and per
 *   signed-in account: one person, whatever the spelling;
 * - ORDER_MAX_UNPAID_UNITS_PER_ADDRESS units per client network (an IPv4 address, an IPv6 /64),
 *   counted in blocks of 100 (rounded up): many honest shoppers behind one carrier address (CGNAT) each order,
 *   while one machine inventing phones and e-mails cannot hold more than that.
 * Each cap is a set of slots the order itself holds (`holdSlots`): claimed by inserting the order,
 * freed by the write that pays, confirms (moves on from Pending), cancels or expires it. A slot
 * names its phone, e-mail, account or network by the keyed hash (`phone:<hash>#1`), never in clear.
 */
@Injectable()
export class OrderHoldLimits {
  private readonly personalKey: PersonalKey;

  constructor(
    private readonly holdSlots: OrderHoldSlotsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.personalKey = personalKeys(config);
  }

  /**
   * Refuses (400) an order over the unit limits, counted in seedlings (`seedlings` per unit of a
   * line: 1 when not known yet, or for the single seedling): at most `maxUnitsPerLine` of one
   * product, its lines in every unit together (singles and trays), and `maxUnitsPerOrder` in all.
   * Lines not priced yet (no `productId`) are checked one by one.
   */
  checkUnits(lines: UnitLine[]): void {
    const { maxUnitsPerLine, maxUnitsPerOrder } = this.config.orders;
    const seedlingsOf = (l: UnitLine) => l.quantity * (l.seedlings ?? 1);
    const perProduct = new Map<string, { name?: string; seedlings: number }>();
    lines.forEach((l, i) => {
      const key = l.productId ?? `line:${i}`;
      const product = perProduct.get(key) ?? { name: l.productName, seedlings: 0 };
      product.seedlings += seedlingsOf(l);
      perProduct.set(key, product);
    });
    const over = [...perProduct.values()].find((p) => p.seedlings > maxUnitsPerLine);
    if (over) {
      throw new BadRequestException(
        over.name
          ? `An order can hold at most ${maxUnitsPerLine} seedlings of ${over.name} (this one has ${over.seedlings}). For a larger order, please contact the shop.`
          : `Quantity must be at most ${maxUnitsPerLine} per product. For a larger order, please contact the shop.`,
      );
    }
    const units = lines.reduce((sum, l) => sum + seedlingsOf(l), 0);
    if (units > maxUnitsPerOrder) {
      throw new BadRequestException(
        `An order can have at most ${maxUnitsPerOrder} seedlings in all (this one has ${units}). For a larger order, please contact the shop.`,
      );
    }
  }

  /**
   * Writes the order (`insert`, given the slot names to carry) holding a slot of each cap, or
   * refuses (409) when one of them is full; nothing is written then.
   */
  async hold<T>(
    source: OrderSource,
    units: number,
    insert: (slots: string[]) => Promise<T>,
  ): Promise<T> {
    const answer = await holdSlots(
      this.dimensions(source, units),
      (keys) => this.holdSlots.takenHoldSlots(keys),
      insert,
      (error) => this.holdSlots.isHoldSlotCollision(error),
    ).catch((error: unknown) => {
      // Other orders took the slots chosen, again and again: a flood from these details.
      if (!this.holdSlots.isHoldSlotCollision(error)) throw error;
      throw new ConflictException(
        'Many orders are being placed with these details at this moment. Please try again in a minute.',
      );
    });
    if (answer.held) return answer.value;
    throw new ConflictException(this.refusal(answer.refused));
  }

  private dimensions(source: OrderSource, units: number): HoldDimension[] {
    const { maxOpenUnpaid, maxUnpaidUnitsPerAddress } = this.config.orders;
    const perPerson = (key: string) => ({ key: this.personalKey(key), limit: maxOpenUnpaid });
    return [
      perPerson(`phone:${canonicalPhone(source.phoneNumber)}`),
      perPerson(`email:${canonicalEmail(source.email)}`),
      ...(source.accountId ? [perPerson(`account:${source.accountId}`)] : []),
      ...(source.clientAddress
        ? [
            {
              key: this.personalKey(`net:${clientNetwork(source.clientAddress)}`),
              limit: Math.ceil(maxUnpaidUnitsPerAddress / HOLD_BLOCK_UNITS),
              count: Math.max(1, Math.ceil(units / HOLD_BLOCK_UNITS)),
            },
          ]
        : []),
    ];
  }

  private refusal(full: HoldDimension): string {
    if (full.key.startsWith('net:')) {
      return (
        `Unpaid orders from your network already hold the most seedlings the shop keeps for one network (${this.config.orders.maxUnpaidUnitsPerAddress}) until they are paid or confirmed. ` +
        'Please pay for an order, or wait until the shop confirms one, before placing another. For a larger order, please contact the shop.'
      );
    }
    return (
      `There are already ${full.limit} unpaid orders waiting for confirmation for these contact details. ` +
      'Please pay for one of them, or wait until the shop confirms it, before placing another order.'
    );
  }
}
