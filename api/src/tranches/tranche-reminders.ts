import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Scheduler } from '../common/scheduler/scheduler';
import { addDays, shopDayAndHour } from '../common/shop-clock';
import { TrancheOrders } from '../orders/tranche-orders';
import { SmsService } from '../sms/sms.service';
import { seedlingsOf, trancheName, type OrderTranchesRecord } from './tranche-record';
import { trancheSmsText } from './tranche-sms-text';
import { TranchesRepository } from './tranches.repository';

/** How often the scheduler looks for tranches due tomorrow. */
const CHECK_EVERY_MS = 10 * 60_000;
/** From this hour of the shop's day (Africa/Nairobi) the eve's texts go out. */
export const EVE_TEXT_HOUR = 8;
/** How often a tranche's mark is written again when another change came first. */
const ATTEMPTS = 5;

/**
 * The site contact's text the day before a planned tranche (issue 43): from EVE_TEXT_HOUR of the
 * shop's day before its date, one API instance at a time looks every few minutes for tranches
 * planned for tomorrow not yet texted for that day. Each text is recorded in the SMS outbox under
 * the tranche and its day (never sent twice, whatever runs beside it), within the SMS budgets;
 * then the tranche is marked (`remindedFor`), so the next look passes it by. A tranche moved to
 * another day is texted again on that day's eve.
 */
@Injectable()
export class TrancheReminders implements OnModuleInit {
  private readonly logger = new Logger(TrancheReminders.name);

  constructor(
    private readonly repository: TranchesRepository,
    private readonly orders: TrancheOrders,
    private readonly sms: SmsService,
    private readonly scheduler: Scheduler,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'tranches.eve-texts',
      everyMs: CHECK_EVERY_MS,
      runsOn: 'one',
      run: (now) => this.textTomorrows(now),
    });
  }

  /** Texts the contacts of tomorrow's tranches not yet texted; answers how many tranches. */
  async textTomorrows(now = new Date()): Promise<number> {
    const { day, hour } = shopDayAndHour(now);
    if (hour < EVE_TEXT_HOUR) return 0;
    const tomorrow = addDays(day, 1);
    let texted = 0;
    for (const doc of await this.repository.plannedFor(tomorrow)) {
      const order = await this.orders.find(doc._id);
      if (!order) continue;
      for (const t of doc.tranches) {
        if (t.state !== 'Planned' || t.date !== tomorrow || t.remindedFor === tomorrow) continue;
        await this.sms.notifyContact({
          id: `tranche:${doc._id}:T${t.number}:tomorrow:${tomorrow}`,
          orderId: doc._id,
          accountId: order.placedBy,
          purchaseNumber: doc.purchaseNumber,
          event: 'tranche-tomorrow',
          phone: t.site.contact.phone,
          message: trancheSmsText(
            'tranche-tomorrow',
            {
              purchaseNumber: doc.purchaseNumber,
              number: t.number,
              date: t.date,
              seedlings: seedlingsOf(doc, t),
            },
            this.sms.smsLinks().shopPhone,
          ),
        });
        if (await this.mark(doc, t.number, tomorrow)) texted++;
      }
    }
    if (texted) this.logger.log(`Texted the contacts of ${texted} tranches due ${tomorrow}`);
    return texted;
  }

  /** The tranche is texted for `day` (still planned for it; else nothing is marked). */
  private async mark(first: OrderTranchesRecord, number: number, day: string): Promise<boolean> {
    let doc: OrderTranchesRecord | null = first;
    for (let attempt = 0; attempt < ATTEMPTS && doc; attempt++) {
      const t = doc.tranches.find((x) => x.number === number);
      if (!t || t.state !== 'Planned' || t.date !== day || t.remindedFor === day) return false;
      const tranches = doc.tranches.map((x) =>
        x.number === number ? { ...x, remindedFor: day } : x,
      );
      if (await this.repository.replace(doc._id, doc.rev, { ...doc, tranches })) return true;
      doc = await this.repository.find(first._id);
    }
    this.logger.warn(`Could not mark ${trancheName(first, number)} as texted for ${day}`);
    return false;
  }
}
