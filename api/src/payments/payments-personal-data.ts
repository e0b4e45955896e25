import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import {
  OwnsPersonalData,
  phoneSpellings,
  type DataSubject,
  type PersonalDataOwner,
} from '../common/personal-data';
import { C2bPayment, MpesaRefund } from './c2b/c2b.schemas';
import { MpesaPush } from './schemas/mpesa-push.schema';

/**
 * M-Pesa's own records: the phone each prompt went to, the paybill payer's number and name, the
 * number a refund goes to. Exported: those of the person's orders, without the shop's internals
 * (Daraja's ids, retries, the clerk who asked). Erased: the amounts and codes stay (the books), the
 * numbers and names go; a refund not yet sent keeps its number until it is sent (then loses it).
 */
@Injectable()
@OwnsPersonalData()
export class PaymentsPersonalData implements PersonalDataOwner {
  readonly collections = {
    mpesa_pushes: 'the phone each M-Pesa prompt was sent to',
    mpesa_c2b_payments: "the paybill payer's number and name as M-Pesa sent them",
    mpesa_refunds: 'the number an M-Pesa refund goes to (kept until it is sent)',
  };

  constructor(
    @InjectModel(MpesaPush.name) private readonly pushes: Model<MpesaPush>,
    @InjectModel(C2bPayment.name) private readonly paybill: Model<C2bPayment>,
    @InjectModel(MpesaRefund.name) private readonly refunds: Model<MpesaRefund>,
  ) {}

  async export(subject: DataSubject): Promise<Record<string, unknown>> {
    const ids = subject.orderIds;
    if (!ids.length) return { payments: [], refunds: [] };
    const [prompts, paybill, transfers] = await Promise.all([
      this.pushes
        .find({ orderId: { $in: ids } })
        .sort({ createdAt: 1 })
        .lean(),
      this.paybill
        .find({ orderId: { $in: ids } })
        .sort({ paidAt: 1 })
        .lean(),
      this.refunds
        .find({ orderId: { $in: ids } })
        .sort({ createdAt: 1 })
        .lean(),
    ]);
    return {
      payments: [
        ...prompts.map((p) => ({
          kind: 'mpesa-prompt',
          purchaseNumber: p.purchaseNumber,
          phone: p.phone,
          amount: p.amount,
          status: p.status,
          receipt: p.receipt,
          at: p.createdAt,
        })),
        ...paybill.map((p) => ({
          kind: 'mpesa-paybill',
          transactionCode: p._id,
          purchaseNumber: p.purchaseNumber,
          amount: p.amount,
          account: p.account,
          phone: p.phone,
          payerName: p.payerName,
          paidAt: p.paidAt,
        })),
      ],
      refunds: transfers.map((r) => ({
        kind: 'mpesa-refund',
        method: r.method,
        amount: r.amount,
        purchaseNumber: r.purchaseNumber,
        phone: r.phone,
        status: r.status,
        transactionId: r.transactionId,
      })),
    };
  }

  async erase(subject: DataSubject): Promise<void> {
    const ids = subject.orderIds;
    if (ids.length) {
      await this.pushes.updateMany({ orderId: { $in: ids } }, { $set: { phone: '' } });
      await this.paybill.updateMany(
        { orderId: { $in: ids } },
        { $set: { phone: '', payerName: '' } },
      );
      await this.refunds.updateMany(
        { orderId: { $in: ids }, status: 'sent' },
        { $set: { phone: '' }, $unset: { forgetPhone: '' } },
      );
      await this.refunds.updateMany(
        { orderId: { $in: ids }, status: { $ne: 'sent' } },
        { $set: { forgetPhone: true } },
      );
    }
    // Payments from a number they proved (a guest's SMS code), on no order of theirs: a payment
    // waiting in the inbox keeps its number until it is given back (then loses it), the rest now.
    const numbers = subject.proven.phones.flatMap(phoneSpellings);
    if (!numbers.length) return;
    await this.paybill.updateMany(
      { phone: { $in: numbers }, status: 'inbox' },
      { $set: { payerName: '', forgetPayer: true } },
    );
    await this.paybill.updateMany(
      { phone: { $in: numbers }, status: { $ne: 'inbox' } },
      { $set: { phone: '', payerName: '', account: '' }, $unset: { forgetPayer: '' } },
    );
    await this.pushes.updateMany({ phone: { $in: numbers } }, { $set: { phone: '' } });
    await this.refunds.updateMany(
      { phone: { $in: numbers }, status: 'sent' },
      { $set: { phone: '' }, $unset: { forgetPhone: '' } },
    );
    await this.refunds.updateMany(
      { phone: { $in: numbers }, status: { $ne: 'sent' } },
      { $set: { forgetPhone: true } },
    );
  }
}
