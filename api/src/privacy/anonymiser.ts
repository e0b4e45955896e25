import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { contactKeysOf } from '../orders/order-contact-keys';
import { MAIL_LOG_COLLECTION } from '../mail/mail-log';

type Doc = Record<string, unknown> & { _id: unknown };

/** What a closed account's or an erased guest's orders show instead of the person. */
export const ANONYMOUS_NAME = 'Deleted customer';

/** Order statuses that are settled: nothing more can happen to the order. */
export const SETTLED_STATUSES = ['Completed', 'Cancelled'];

/**
 * Removes a person from the records the law lets the shop keep: the orders stay whole (lines,
 * totals, payment, dates: the sales report and the tax records do not change) but lose the name,
 * phone, e-mail and address; the M-Pesa prompts and paybill payments lose the phone (and the
 * payer's name), as do refunds already sent; the order texts and e-mails sent to the person are
 * deleted.
 */
@Injectable()
export class Anonymiser {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** Purchase numbers of these orders that are not settled yet (deletion waits for them). */
  openOrders(orders: Doc[]): string[] {
    return orders
      .filter(
        (o) => o.placement !== 'reserving' && !SETTLED_STATUSES.includes(String(o.orderStatus)),
      )
      .map((o) => String(o.purchaseNumber));
  }

  async anonymiseOrders(orders: Doc[]): Promise<void> {
    const ids = orders.map((o) => o._id);
    const orderIds = ids.map(String);
    const emails = [
      ...new Set(
        orders.map((o) => String((o.guestInfo as Doc | undefined)?.email ?? '').toLowerCase()),
      ),
    ].filter(Boolean);
    await this.col('orders').updateMany(
      { _id: { $in: ids as never[] } },
      {
        $set: {
          'guestInfo.fullName': ANONYMOUS_NAME,
          'guestInfo.phoneNumber': '',
          'guestInfo.email': '',
          'guestInfo.streetAddress': '',
          'guestInfo.ward': '',
          'guestInfo.subCounty': '',
          clientAddress: null,
          // The search finds an erased order only by what it still shows.
          contactKeys: contactKeysOf({ fullName: ANONYMOUS_NAME }),
        },
      },
    );
    await this.col('mpesa_pushes').updateMany(
      { orderId: { $in: orderIds } },
      { $set: { phone: '' } },
    );
    // Paybill payments keep their amount and M-Pesa code (the shop's books) but not the payer;
    // a refund keeps the phone only while M-Pesa may still need it (not yet sent).
    await this.col('mpesa_c2b_payments').updateMany(
      { orderId: { $in: orderIds } },
      { $set: { phone: '', payerName: '' } },
    );
    await this.col('mpesa_refunds').updateMany(
      { orderId: { $in: orderIds }, status: 'sent' },
      { $set: { phone: '' } },
    );
    await this.col('sms_outbox').deleteMany({ orderId: { $in: orderIds } });
    if (emails.length) await this.col(MAIL_LOG_COLLECTION).deleteMany({ to: { $in: emails } });
  }

  async forgetEmail(email: string): Promise<void> {
    await this.col(MAIL_LOG_COLLECTION).deleteMany({ to: email.toLowerCase() });
  }

  private col(name: string): mongo.Collection<Doc> {
    return this.connection.db!.collection<Doc>(name);
  }
}
