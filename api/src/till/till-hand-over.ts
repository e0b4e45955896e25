import { Injectable, Logger } from '@nestjs/common';
import { OnDomainEvent } from '../common/events/domain-events';
import type { Actor } from '../common/principal';
import { OrderGateSales } from '../orders/order-gate-sales';
import type { OrderEvent } from '../orders/order-events';

/**
 * A gate sale paid by an M-Pesa Express prompt is handed over when the prompt pays it (its
 * callback, or Daraja's status query), in its seller's name; sales paid at once are handed over
 * by the till's own call.
 */
@Injectable()
export class TillHandOver {
  private readonly logger = new Logger(TillHandOver.name);

  constructor(private readonly gate: OrderGateSales) {}

  @OnDomainEvent('order.paid')
  async onPaid({ order }: OrderEvent): Promise<void> {
    const till = order.till;
    if (order.channel !== 'gate' || !till?.payments.some((p) => p.method === 'mpesa-express'))
      return;
    const seller: Actor = { id: till.sellerId, role: 'staff', fullName: till.sellerName };
    // Never fails the payment's own step: a sale not handed over shows as paid on the till.
    await this.gate
      .handOver(seller, order)
      .catch((e: Error) =>
        this.logger.warn(`Could not hand over gate sale ${order.purchaseNumber}: ${e.message}`),
      );
  }
}
