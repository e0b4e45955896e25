import { BadRequestException, ConflictException, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { OrdersRepository } from './orders.repository';

/** Who an order is for and where the request came from: what the open-order cap counts by. */
export interface OrderSource {
  phoneNumber: string;
  email: string;
  /** The client's network address (X-Forwarded-For behind a trusted proxy); absent in scripts. */
  clientAddress?: string;
}

/**
 * Bounds the stock one client can hold with orders nobody has paid for or confirmed: units per line
 * and per order, and how many such orders one phone number, e-mail or network address may have open
 * at once (ORDER_MAX_UNITS_PER_LINE, ORDER_MAX_UNITS_PER_ORDER, ORDER_MAX_OPEN_UNPAID). An order stops
 * counting once it is paid, once staff move it on from Pending (pay on delivery), or once it is
 * cancelled or expires (UNPAID_ORDER_EXPIRY_HOURS).
 */
@Injectable()
export class OrderHoldLimits {
  constructor(
    private readonly orders: OrdersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Refuses (400) lines or orders over the unit limits. */
  checkUnits(lines: { quantity: number }[]): void {
    const { maxUnitsPerLine, maxUnitsPerOrder } = this.config.orders;
    if (lines.some((l) => l.quantity > maxUnitsPerLine)) {
      throw new BadRequestException(
        `Quantity must be at most ${maxUnitsPerLine} per product. For a larger order, please contact the shop.`,
      );
    }
    const units = lines.reduce((sum, l) => sum + l.quantity, 0);
    if (units > maxUnitsPerOrder) {
      throw new BadRequestException(
        `An order can have at most ${maxUnitsPerOrder} seedlings in all (this one has ${units}). For a larger order, please contact the shop.`,
      );
    }
  }

  /** Refuses (409) a new order when its phone, e-mail or address already has the most open unpaid ones. */
  async checkOpenOrders(source: OrderSource): Promise<void> {
    const max = this.config.orders.maxOpenUnpaid;
    const open = await this.orders.countOpenUnpaid(source, max);
    if (open >= max) {
      throw new ConflictException(
        `There are already ${open} unpaid orders waiting for confirmation for these contact details. ` +
          'Please pay for one of them, or wait until the shop confirms it, before placing another order.',
      );
    }
  }
}
