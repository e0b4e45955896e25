import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { formatMoney } from '@spc/shared-contracts';
import type { Connection, mongo } from 'mongoose';
import { MAIL_LOG_COLLECTION } from '../mail/mail-log';
import type { UserView } from '../users/user.types';
import { ConsentsService, type MarketingConsent } from './consents.service';

type Doc = Record<string, unknown> & { _id: unknown };

/** Everything the shop holds about one person, as one JSON file (issue 31). */
export interface DataExport {
  /** Lines a person can read without knowing JSON. */
  summary: string[];
  generatedAt: string;
  account: Omit<UserView, 'role'> | null;
  deliveryDetails: {
    fullName: string;
    phoneNumber: string;
    county: string;
    streetAddress: string;
  } | null;
  orders: Doc[];
  payments: Doc[];
  refunds: Doc[];
  smsMessages: Doc[];
  emails: Doc[];
  consents: MarketingConsent | null;
}

/** Fields of an order that are the shop's internals, not the person's data. */
const ORDER_INTERNALS = ['holdSlots', 'placement', 'ledgerSettled', 'stockReturn', '__v'];

function plain(doc: Doc, drop: string[] = []): Doc {
  const out: Doc = { ...doc, _id: String(doc._id) };
  for (const key of drop) delete out[key];
  return out;
}

/**
 * Builds the export: of an account (its orders are those it placed; its e-mails those sent to its
 * address), or of a guest (the orders given with one phone number and no account). Never another
 * person's records: every query names this person's orders or address.
 */
@Injectable()
export class DataExportBuilder {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly consents: ConsentsService,
  ) {}

  async forAccount(user: UserView): Promise<DataExport> {
    const orders = await this.col('orders')
      .find({ placedBy: user._id, placement: { $ne: 'reserving' } })
      .sort({ orderDate: 1 })
      .toArray();
    const consent = await this.consents.get(user._id);
    const { role: _role, ...account } = user;
    return this.build({
      account,
      deliveryDetails: {
        fullName: user.fullName,
        phoneNumber: user.phoneNumber,
        county: user.county,
        streetAddress: user.streetAddress,
      },
      orders,
      // The account's address, and those given at checkout on its own orders.
      emailsTo: [user.email, ...orders.map((o) => String((o.guestInfo as Doc).email ?? ''))],
      consents: consent.history.length ? consent : null,
    });
  }

  /** A guest's orders: every order without an account given with the phone of `orderIds`' first. */
  async forGuest(orders: Doc[]): Promise<DataExport> {
    const emails = [...new Set(orders.map((o) => String((o.guestInfo as Doc).email ?? '')))];
    return this.build({
      account: null,
      deliveryDetails: null,
      orders,
      emailsTo: emails.filter(Boolean),
      consents: null,
    });
  }

  private async build(input: {
    account: DataExport['account'];
    deliveryDetails: DataExport['deliveryDetails'];
    orders: Doc[];
    emailsTo: string[];
    consents: MarketingConsent | null;
  }): Promise<DataExport> {
    const ids = input.orders.map((o) => String(o._id));
    const [payments, paybill, refunds, transfers, sms, emails] = await Promise.all([
      this.col('mpesa_pushes')
        .find({ orderId: { $in: ids } })
        .sort({ createdAt: 1 })
        .toArray(),
      this.col('mpesa_c2b_payments')
        .find({ orderId: { $in: ids } })
        .sort({ paidAt: 1 })
        .toArray(),
      this.col('order_refunds')
        .find({ orderId: { $in: ids } })
        .toArray(),
      this.col('mpesa_refunds')
        .find({ orderId: { $in: ids } })
        .sort({ createdAt: 1 })
        .toArray(),
      this.col('sms_outbox')
        .find({ orderId: { $in: ids } })
        .sort({ createdAt: 1 })
        .toArray(),
      this.col(MAIL_LOG_COLLECTION)
        .find({ to: { $in: [...new Set(input.emailsTo.map((e) => e.toLowerCase()))] } })
        .sort({ sentAt: 1 })
        .toArray(),
    ]);
    const orders = input.orders.map((o) => plain(o, ORDER_INTERNALS));
    const smsMessages = sms.map((m) => plain(m, ['leaseUntil', 'nextTryAt']));
    // Each payment recorded on an order (cash, M-Pesa, card), then every M-Pesa prompt sent.
    const paymentRows: Doc[] = [
      ...input.orders
        .filter((o) => o.paymentDetails)
        .map((o) => ({
          ...(o.paymentDetails as Record<string, unknown>),
          _id: String(o._id),
          kind: 'payment',
          purchaseNumber: o.purchaseNumber,
          paymentMethod: o.paymentMethod,
        })),
      ...payments.map((p) => ({
        kind: 'mpesa-prompt',
        ...plain(p, ['callback', 'lastQueriedAt', 'nextRecheckAt', 'rechecks']),
      })),
      ...paybill.map(({ _id, amount, account, phone, payerName, paidAt, status, orderId }) => ({
        kind: 'mpesa-paybill',
        _id: String(_id),
        transactionCode: String(_id),
        amount,
        account,
        phone,
        payerName,
        paidAt,
        status,
        orderId,
      })),
    ];
    // Refunds recorded by staff, then the money M-Pesa sent back (reversal or B2C).
    const refundRows: Doc[] = [
      ...refunds.map((r) => plain(r)),
      ...transfers.map(
        ({ _id, method, amount, orderId, purchaseNumber, phone, status, transactionId }) => ({
          kind: 'mpesa-refund',
          _id: String(_id),
          method,
          amount,
          orderId,
          purchaseNumber,
          phone,
          status,
          transactionId,
        }),
      ),
    ];
    const summary = [
      'This file holds everything the shop keeps about you, as of the date below.',
      input.account
        ? `Account: ${input.account.fullName}, ${input.account.email}, phone ${input.account.phoneNumber || 'none'}, since ${input.account.createdAt.slice(0, 10)}.`
        : 'No account: these are the orders given with your phone number.',
      `Orders: ${orders.length}${orders.length ? ` (${orders.map((o) => `${String(o.purchaseNumber)} ${formatMoney(Number(o.totalAmount))} ${String(o.orderStatus)}`).join('; ')})` : ''}.`,
      `Payments: ${paymentRows.filter((p) => p.kind === 'payment').length}; paybill payments: ${paybill.length}; M-Pesa prompts: ${payments.length}; refunds: ${refundRows.length}.`,
      `Text messages sent to you: ${smsMessages.length}. E-mails sent to you: ${emails.length}.`,
      input.consents
        ? `Offers by text message: ${input.consents.granted ? 'you agreed' : 'you did not agree, or withdrew'} (${input.consents.history.length} change${input.consents.history.length === 1 ? '' : 's'} recorded).`
        : 'Offers by text message: you never agreed to them.',
    ];
    return {
      summary,
      generatedAt: new Date().toISOString(),
      account: input.account,
      deliveryDetails: input.deliveryDetails,
      orders,
      payments: paymentRows,
      refunds: refundRows,
      smsMessages,
      emails: emails.map((e) => plain(e)),
      consents: input.consents,
    };
  }

  private col(name: string): mongo.Collection<Doc> {
    return this.connection.db!.collection<Doc>(name);
  }
}
