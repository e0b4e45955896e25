import {
  BadGatewayException,
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  MPESA_EXPRESS_NAME,
  MPESA_MAX_AMOUNT_KES,
  MPESA_MESSAGES,
  toMpesaPhone,
  type MpesaPushStatus,
} from '@spc/shared-contracts';
import type { Principal, SystemActor } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { MpesaConfig } from '../config/mpesa-config';
import { bookingClosedReason } from '../orders/order-credit-rule';
import { OrdersService } from '../orders/orders.service';
import { DarajaClient, DarajaError } from './daraja.client';
import { MpesaPushesRepository } from './mpesa-pushes.repository';
import { PromptLimits } from './prompt-limits';

/** Who the audit trail names for what M-Pesa Express does on its own. */
export const MPESA_ACTOR: SystemActor = {
  id: 'mpesa-express',
  role: 'system',
  fullName: MPESA_EXPRESS_NAME,
};

/** The shape of Daraja's CheckoutRequestID; anything else is no prompt of ours. */
export const CHECKOUT_REQUEST_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const OTHER_PHONE_MESSAGE =
  'The M-Pesa prompt can only go to the phone number on the order. To pay from another phone, sign in to the account that placed the order, or ask the shop.';

/**
 * M-Pesa Express at checkout, the prompting half: who may prompt which phone for which order, the
 * limits on prompts, and what the checkout may know about one. How a prompt ends is
 * mpesa-settlement.service.ts.
 *
 * A prompt is sent for a pending, unpaid order (amount from the order);
 * Daraja's callback says how it ended. Money is confirmed, never inferred: no callback decides
 * anything on its own word. Every callback, success or failure, right amount or wrong, is checked
 * with Daraja's status query, and the query's answer settles the prompt. A receipt number is taken
 * only from a success callback with the right amount for a prompt Daraja confirmed paid, and only
 * while no other callback names a different one. Prompts that hear nothing, and prompts settled as
 * failed, are asked about again by a reconciler, so a lost or forged callback costs a delay, not a
 * payment.
 */
@Injectable()
export class MpesaService {
  private readonly logger = new Logger(MpesaService.name);
  private readonly settings: MpesaConfig | null;

  constructor(
    private readonly pushes: MpesaPushesRepository,
    private readonly daraja: DarajaClient,
    private readonly orders: OrdersService,
    private readonly limits: PromptLimits,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settings = config.mpesa;
  }

  get enabled(): boolean {
    return this.settings !== null;
  }

  /**
   * Sends the PIN prompt for an order to a phone; the amount is the order's total. Anyone who knows
   * the order number may prompt the order's own phone; another phone only the customer who placed
   * the order (signed in) or staff.
   */
  async push(
    purchaseNumber: string,
    phoneNumber: string,
    actor?: Principal,
  ): Promise<{ checkoutRequestId: string }> {
    if (!this.settings) throw new ServiceUnavailableException(MPESA_MESSAGES.notAvailable);
    const phone = toMpesaPhone(phoneNumber);
    if (!phone) throw new HttpException(MPESA_MESSAGES.invalidPhone, HttpStatus.BAD_REQUEST);
    const order = await this.orders.findByPurchaseNumber(purchaseNumber);
    if (!order) throw new NotFoundException(MPESA_MESSAGES.unknownOrder);
    if (order.paymentStatus === 'Paid')
      throw new ConflictException({ message: MPESA_MESSAGES.alreadyPaid, code: 'ALREADY_PAID' });
    if (order.orderStatus === 'Cancelled')
      throw new ConflictException({
        message: MPESA_MESSAGES.orderCancelled,
        code: 'ILLEGAL_TRANSITION',
      });
    if (order.orderStatus !== 'Pending')
      throw new ConflictException({
        message: MPESA_MESSAGES.orderNotPending,
        code: 'ILLEGAL_TRANSITION',
      });
    // The amount due now: the total less paybill part payments already credited; on a booking the
    // deposit while it is due, then the balance.
    const booking = bookingClosedReason(order);
    if (booking)
      throw new ConflictException({
        message: `This booking cannot be paid now: ${booking}`,
        code: 'ILLEGAL_TRANSITION',
      });
    const amount = order.amountDueNow;
    if (amount > MPESA_MAX_AMOUNT_KES) throw new ConflictException(MPESA_MESSAGES.tooLarge);
    const mayUseAnyPhone =
      !!actor && (actor.role !== 'customer' || (!!order.placedBy && order.placedBy === actor.id));
    if (!mayUseAnyPhone && toMpesaPhone(order.guestInfo.phoneNumber) !== phone) {
      throw new ForbiddenException(OTHER_PHONE_MESSAGE);
    }

    const ticket = await this.limits.claim(order._id, phone);

    let sent: { checkoutRequestId: string; merchantRequestId: string };
    try {
      sent = await this.daraja.stkPush({
        amount,
        phone,
        accountReference: order.purchaseNumber,
        description: 'Seedlings',
      });
    } catch (error) {
      if (!(error instanceof DarajaError)) throw error;
      // Refused outright, no prompt reached the phone; a timeout may have sent one, so it counts.
      if (error.status >= 400 && error.status < 500) await this.limits.release(ticket);
      this.logger.warn(
        `Daraja refused the prompt for ${order.purchaseNumber}: ${error.status} ${error.errorCode ?? ''} ${error.message}`,
      );
      if (error.status === 0 || error.status >= 500)
        throw new ServiceUnavailableException(MPESA_MESSAGES.unreachable);
      throw new BadGatewayException(MPESA_MESSAGES.rejected);
    }
    await this.pushes.insert({
      _id: sent.checkoutRequestId,
      merchantRequestId: sent.merchantRequestId,
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      phone,
      amount,
    });
    return { checkoutRequestId: sent.checkoutRequestId };
  }

  /**
   * How an order may still be paid by M-Pesa, for its page: the paybill, the account (its purchase
   * number) and the amount due, and how its latest prompt ended (a failed one offers "Try M-Pesa
   * again"). Nothing about the customer.
   */
  async payInfo(purchaseNumber: string): Promise<{
    payable: boolean;
    paybill: string | null;
    account: string;
    amountDue: number;
    lastPrompt: { status: MpesaPushStatus; message: string } | null;
  }> {
    const order = await this.orders.findByPurchaseNumber(purchaseNumber);
    if (!order) throw new NotFoundException(MPESA_MESSAGES.unknownOrder);
    const push = await this.pushes.latestForOrder(order._id);
    return {
      payable:
        !!this.settings &&
        order.paymentStatus === 'Pending' &&
        order.orderStatus === 'Pending' &&
        order.amountDueNow > 0,
      paybill: this.settings?.shortcode ?? null,
      account: order.purchaseNumber,
      amountDue: order.amountDueNow,
      lastPrompt: push
        ? {
            status: push.status,
            message: push.status === 'pending' ? MPESA_MESSAGES.waiting : push.message,
          }
        : null,
    };
  }

  /** What the checkout may know about a prompt: pending, paid or failed, and the message. */
  async status(checkoutRequestId: string): Promise<{ status: MpesaPushStatus; message: string }> {
    const push = CHECKOUT_REQUEST_ID.test(checkoutRequestId)
      ? await this.pushes.findById(checkoutRequestId)
      : null;
    if (!push) throw new NotFoundException(MPESA_MESSAGES.unknownPrompt);
    return {
      status: push.status,
      message: push.status === 'pending' ? MPESA_MESSAGES.waiting : push.message,
    };
  }
}
