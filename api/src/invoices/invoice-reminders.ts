import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  formatMoney,
  INVOICE_REMINDER_DAYS,
  INVOICE_REMINDERS,
  type InvoiceReminder,
} from '@spc/shared-contracts';
import { isValidObjectId, type Model } from 'mongoose';
import { AuditService } from '../audit/audit.service';
import { Scheduler } from '../common/scheduler/scheduler';
import { addDays, shopDayAndHour } from '../common/shop-clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { QueuedMail } from '../mail/mail-outbox.repository';
import { MailQueue, type MailContent } from '../mail/mail-queue.service';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { TrancheOrders } from '../orders/tranche-orders';
import { OrganisationsService } from '../organisations/organisations.service';
import { SmsService } from '../sms/sms.service';
import { invoiceReminderMail, invoiceReminderSms } from './invoice-reminders-text';
import { Invoice } from './schemas/invoice.schema';

/** How often the scheduler looks for invoices to remind of. */
const CHECK_EVERY_MS = 10 * 60_000;
/** From this hour of the shop's day (Africa/Nairobi) the reminders go out. */
export const INVOICE_REMINDER_HOUR = 8;
/** The most invoices one sweep reminds of (the next sweep takes the rest). */
const BATCH = 500;
/**
 * How late a reminder still goes out: an invoice due longer ago than this when the API comes back
 * (or when its terms made it due in the past) gets none it missed.
 */
export const INVOICE_REMINDER_CATCH_UP_DAYS = 30;

type LeanInvoice = Invoice & { _id: { toString(): string } };

/**
 * The reminder due on `today` for an invoice due on `dueDate`: the latest of INVOICE_REMINDERS
 * whose day has come (a week late, 'week' and not 'due'), or null before its due date.
 */
export function latestReminder(dueDate: string, today: string): InvoiceReminder | null {
  let latest: InvoiceReminder | null = null;
  for (const kind of INVOICE_REMINDERS)
    if (today >= addDays(dueDate, INVOICE_REMINDER_DAYS[kind])) latest = kind;
  return latest;
}

/**
 * The billing contact's reminders of an open invoice (issue 44): an e-mail and a text message on
 * its due date and a week after, each once. From INVOICE_REMINDER_HOUR of the shop's day, one API
 * instance at a time looks every few minutes for open invoices whose reminder is due; each is
 * claimed on the invoice first (a conditional write pushing the reminder only while the invoice
 * has none of that kind, so two sweeps, or two instances, send one), then sent through the mail
 * queue and the SMS outbox (each under its own key, within the SMS budgets) and audited
 * (`invoice.reminder`). A reminder whose day passed unsent (the API was down a week) is not sent
 * late beside a later one: only the latest applicable goes out, the earlier ones are recorded as
 * claimed. An invoice settled before its e-mail leaves is not mailed.
 */
@Injectable()
export class InvoiceReminders implements OnModuleInit {
  private readonly logger = new Logger(InvoiceReminders.name);

  constructor(
    @InjectModel(Invoice.name) private readonly invoices: Model<Invoice>,
    private readonly orgs: OrganisationsService,
    private readonly orders: TrancheOrders,
    private readonly sms: SmsService,
    private readonly mail: MailQueue,
    private readonly audit: AuditService,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.mail.register('invoice-reminder', (m) => this.build(m));
    this.scheduler.declare({
      name: 'invoices.reminders',
      everyMs: CHECK_EVERY_MS,
      runsOn: 'one',
      run: (now) => this.sweep(now),
    });
  }

  /** Reminds the billing contacts of the open invoices due a reminder; answers how many were sent. */
  async sweep(now = new Date()): Promise<number> {
    const { day: today, hour } = shopDayAndHour(now);
    if (hour < INVOICE_REMINDER_HOUR) return 0;
    // The open invoices due from INVOICE_REMINDER_CATCH_UP_DAYS ago to today, by the index on
    // state and due day (a few hundred at most); those reminded already are skipped here. Before
    // tomorrow, not up to today: SecantusDB 0.7 (Python) leaves out a key equal to a `$lte` bound
    // on a field an index has more fields after ({state, dueDate, _id}); MongoDB does not.
    const open = await this.invoices
      .find({
        state: 'Open',
        dueDate: { $gte: addDays(today, -INVOICE_REMINDER_CATCH_UP_DAYS), $lt: addDays(today, 1) },
      })
      .sort({ state: 1, dueDate: 1, _id: 1 })
      .lean<LeanInvoice[]>()
      .exec();
    let sent = 0;
    for (const inv of open) {
      if (sent >= BATCH) break;
      if (inv.balance <= 0 || typeof inv.number !== 'string') continue;
      const kind = latestReminder(inv.dueDate, today);
      if (!kind || inv.reminders.some((r) => r.kind === kind)) continue;
      try {
        if (!(await this.claim(inv, kind, now))) continue;
        await this.send(inv, kind);
        sent++;
      } catch (error) {
        this.logger.error(
          `The ${kind} reminder of ${inv.number} was not sent: ${(error as Error).message}`,
        );
      }
    }
    if (sent) this.logger.log(`Reminded the billing contacts of ${sent} invoices`);
    return sent;
  }

  /**
   * Claims `kind` on the invoice (and the earlier reminders it has not had, recorded as passed):
   * one conditional write, which only one sweep wins; false when another came first or the
   * invoice was settled meanwhile.
   */
  private async claim(inv: LeanInvoice, kind: InvoiceReminder, at: Date): Promise<boolean> {
    const upTo = INVOICE_REMINDERS.slice(0, INVOICE_REMINDERS.indexOf(kind) + 1);
    const missing = upTo.filter((k) => !inv.reminders.some((r) => r.kind === k));
    const { modifiedCount } = await this.invoices
      .updateOne(
        {
          _id: inv._id,
          state: 'Open',
          balance: { $gt: 0 },
          'reminders.kind': { $nin: missing },
        },
        {
          $push: { reminders: { $each: missing.map((k) => ({ kind: k, at })) } },
          $inc: { rev: 1 },
        },
      )
      .exec();
    return modifiedCount === 1;
  }

  /** The e-mail and the text message of a claimed reminder, and its audit entry. */
  private async send(inv: LeanInvoice, kind: InvoiceReminder): Promise<void> {
    const id = inv._id.toString();
    const number = inv.number!;
    const [org, order] = await Promise.all([
      this.orgs.findRecord(inv.organisationId),
      this.orders.find(inv.orderId),
    ]);
    const contact = org?.billingContact;
    if (!contact) {
      this.logger.warn(`The ${kind} reminder of ${number}: its organisation is gone`);
      return;
    }
    const accountId = order?.placedBy ?? null;
    const what = {
      number,
      lpoNumber: inv.lpoNumber,
      balance: inv.balance,
      total: inv.total,
      dueDate: inv.dueDate,
      organisationName: org.name,
    };
    if (contact.email)
      await this.mail.send({
        key: `invoice:${id}:reminder:${kind}`,
        template: 'invoice-reminder',
        to: contact.email,
        for: { accountId, orderId: inv.orderId },
        ref: id,
        params: { kind },
      });
    if (contact.phone)
      await this.sms.notifyContact({
        id: `invoice:${id}:${kind}`,
        orderId: inv.orderId,
        accountId,
        purchaseNumber: inv.purchaseNumber,
        event: kind === 'due' ? 'invoice-due' : 'invoice-week',
        phone: contact.phone,
        message: invoiceReminderSms(kind, what, this.links()),
      });
    await this.audit.record(
      SHOP_ACTOR,
      'invoice.reminder',
      `The shop reminded the billing contact of ${org.name} of invoice ${number} (${kind === 'due' ? 'due today' : `a week overdue, due ${inv.dueDate}`}): ${formatMoney(inv.balance)} owed`,
      { type: 'invoice', id, label: number },
    );
  }

  private links(): { paybill: string | null; shopPhone: string } {
    return {
      paybill: this.config.mpesa?.shortcode ?? null,
      shopPhone: this.config.shopContacts.phone,
    };
  }

  /** A reminder's e-mail, made when it leaves: none once the invoice is settled. */
  async build(queued: QueuedMail): Promise<MailContent | { skip: string } | { gone: string }> {
    const inv =
      queued.ref && isValidObjectId(queued.ref)
        ? await this.invoices.findById(queued.ref).lean<LeanInvoice>().exec()
        : null;
    if (!inv || !inv.number) return { gone: 'the invoice is gone' };
    if (inv.state !== 'Open' || inv.balance <= 0) return { skip: 'the invoice is settled' };
    const kind: InvoiceReminder = queued.params.kind === 'week' ? 'week' : 'due';
    return invoiceReminderMail(
      kind,
      {
        number: inv.number,
        lpoNumber: inv.lpoNumber,
        balance: inv.balance,
        total: inv.total,
        dueDate: inv.dueDate,
        organisationName: inv.organisationName,
      },
      { ...this.links(), shopEmail: this.config.shopContacts.email },
    );
  }
}
