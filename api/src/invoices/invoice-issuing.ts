import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleInit,
} from '@nestjs/common';
import {
  formatMoney,
  INVOICE_MESSAGES as IM,
  KRA_PIN_PATTERN,
  SHOP_IDENTITY,
  trancheLabel,
} from '@spc/shared-contracts';
import { DomainEvents, OnDomainEvent, type DomainEvent } from '../common/events/domain-events';
import type { Actor, SystemActor } from '../common/principal';
import { Scheduler } from '../common/scheduler/scheduler';
import { addDays, shopDay } from '../common/shop-clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { OrderEvent } from '../orders/order-events';
import type { OrderRecord } from '../orders/order.types';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { TrancheOrders } from '../orders/tranche-orders';
import type { OrganisationRecord } from '../organisations/organisation-record';
import { OrganisationsService } from '../organisations/organisations.service';
import type { TrancheEvent } from '../tranches/tranche-events';
import { lineStandings, type OrderTranchesRecord } from '../tranches/tranche-record';
import { trancheOf } from '../tranches/tranche-rules';
import { TranchesRepository } from '../tranches/tranches.repository';
import { InvoicesRepository, type InvoiceDraft, type InvoiceRecord } from './invoices.repository';
import type { InvoiceLine } from './schemas/invoice.schema';

/** An invoice was issued: the audit trail keeps it, on its order's timeline. */
export interface InvoiceEvent extends DomainEvent {
  invoice: InvoiceRecord;
}

declare module '../common/events/domain-events' {
  interface DomainEventMap {
    'invoice.issued': InvoiceEvent;
  }
}

/** The key of a tranche's invoice ('T1'), or of the whole order's. */
export const WHOLE_ORDER = 'order';
const keyOf = (tranche: number | null) => (tranche === null ? WHOLE_ORDER : trancheLabel(tranche));

/** How long after a delivery the sweep looks for the invoice it should have issued. */
const SWEEP_AFTER_MS = 60_000;
/** How far back the sweep looks for deliveries left uninvoiced (it runs every minute). */
const SWEEP_LOOKS_BACK_MS = 3 * 24 * 3600_000;

const conflict = (message: string) =>
  new ConflictException({ message, code: 'ILLEGAL_TRANSITION' });

/**
 * Issues the invoices of orders from quotations (issue 44, docs/invoices.md): by itself when a
 * tranche's signed note is recorded (an organisation invoiced per tranche), when the order's last
 * tranche is delivered or an order without tranches is delivered (invoiced once for the whole
 * order), and by a clerk's hand. An invoice bills what arrived at the quoted prices; the order's
 * delivery fee goes on its first. One per order and tranche (or per order): issuing again answers
 * the first. The sweep numbers an invoice a crash left without a number and issues one a crash
 * left unissued.
 */
@Injectable()
export class InvoiceIssuing implements OnModuleInit {
  private readonly logger = new Logger(InvoiceIssuing.name);

  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly tranches: TranchesRepository,
    private readonly orders: TrancheOrders,
    private readonly orgs: OrganisationsService,
    private readonly events: DomainEvents,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'invoices.issue-left',
      everyMs: 60_000,
      runsOn: 'one',
      atStart: true,
      run: (now) => this.sweep(now),
    });
  }

  @OnDomainEvent('tranche.delivered')
  async trancheDelivered(event: TrancheEvent): Promise<void> {
    await this.quietly(
      `tranche ${trancheLabel(event.tranche.number)} of ${event.purchaseNumber}`,
      () => this.afterDelivery(event.orderId),
    );
  }

  @OnDomainEvent('order.delivered')
  async orderDelivered(event: OrderEvent): Promise<void> {
    if (!event.order.quotation) return;
    await this.quietly(`order ${event.order.purchaseNumber}`, () =>
      this.afterDelivery(event.order._id),
    );
  }

  @OnDomainEvent('order.fulfilled')
  async orderFulfilled(event: OrderEvent): Promise<void> {
    if (!event.order.quotation) return;
    await this.quietly(`order ${event.order.purchaseNumber}`, () =>
      this.afterDelivery(event.order._id),
    );
  }

  /**
   * A clerk issues the invoice of a delivered tranche (`tranche`) or of the whole order (none):
   * the one there is when it exists (`created` false). 404 for no order; 409 with the words for an
   * order not from a quotation, a tranche not delivered, an order not all delivered, and an
   * invoice its organisation's terms do not take; 400 for an organisation whose KRA PIN is not of
   * KRA's form (eTIMS would refuse the tax invoice).
   */
  async issueByHand(
    actor: Actor,
    orderId: string,
    tranche: number | null,
  ): Promise<{ invoice: InvoiceRecord; created: boolean }> {
    const order = await this.orders.find(orderId);
    if (!order)
      throw new NotFoundException({ message: 'No order with this id', code: 'NOT_FOUND' });
    if (!order.quotation) throw conflict(IM.notOnQuotation);
    const existing = await this.invoices.findFor(order._id, keyOf(tranche));
    if (existing) return { invoice: await this.invoices.withNumber(existing), created: false };
    const [org, doc] = await Promise.all([
      this.organisationOf(order),
      this.tranches.find(order._id),
    ]);
    const mode = org.terms.invoicing;
    const inTranches = hasTranches(doc);
    if (tranche !== null) {
      const t = trancheOf(doc, order.purchaseNumber, tranche);
      if (mode === 'wholeOrder') throw conflict(IM.wholeOrderTerms);
      if (t.state !== 'Delivered') throw conflict(IM.trancheNotDelivered(trancheLabel(tranche)));
      await this.refuseOther(order, 'tranche');
      return this.issue(actor, order, org, doc!, tranche);
    }
    if (inTranches && mode === 'perTranche') throw conflict(IM.perTrancheTerms);
    if (!wholeOrderDelivered(order, doc)) throw conflict(IM.orderNotDelivered);
    await this.refuseOther(order, 'order');
    return this.issue(actor, order, org, doc, null);
  }

  /**
   * What a delivery (a tranche's, or the order's) issues, as the organisation's terms say: each
   * delivered tranche's invoice (per tranche), the whole order's once all of it is delivered
   * (once for the whole order, and any order without tranches). What is issued already is left.
   */
  async afterDelivery(orderId: string): Promise<InvoiceRecord[]> {
    const order = await this.orders.find(orderId);
    if (!order?.quotation) return [];
    const [org, doc, issued] = await Promise.all([
      this.organisationOf(order),
      this.tranches.find(order._id),
      this.invoices.ofOrder(order._id),
    ]);
    const keys = new Set(issued.map((i) => i.trancheKey));
    const out: InvoiceRecord[] = [];
    if (hasTranches(doc) && org.terms.invoicing === 'perTranche') {
      if (keys.has(WHOLE_ORDER)) return [];
      for (const t of doc!.tranches)
        if (t.state === 'Delivered' && !keys.has(keyOf(t.number)))
          out.push((await this.issue(SHOP_ACTOR, order, org, doc, t.number)).invoice);
      return out;
    }
    if (keys.size || !wholeOrderDelivered(order, doc)) return [];
    return [(await this.issue(SHOP_ACTOR, order, org, doc, null)).invoice];
  }

  /**
   * The sweep: numbers the invoices a crash left without one, and issues those a crash left
   * unissued (orders with a tranche delivered, or delivered whole, and no invoice for it).
   */
  async sweep(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - SWEEP_AFTER_MS);
    let done = await this.invoices.numberLeft(before);
    const since = new Date(now.getTime() - SWEEP_LOOKS_BACK_MS);
    for (const orderId of await this.tranches.deliveredBetween(since, before)) {
      try {
        done += (await this.afterDelivery(orderId)).length;
      } catch (error) {
        this.logger.error(
          `Could not issue the invoices of order ${orderId}: ${(error as Error).message}`,
        );
      }
    }
    return done;
  }

  /** The invoice written (or the one there was), numbered, announced when new. */
  private async issue(
    actor: Actor,
    order: OrderRecord,
    org: OrganisationRecord,
    doc: OrderTranchesRecord | null,
    tranche: number | null,
  ): Promise<{ invoice: InvoiceRecord; created: boolean }> {
    // KRA signs the invoice to the organisation's PIN: one it would refuse stops the invoice here.
    if (!KRA_PIN_PATTERN.test(org.kraPin))
      throw new BadRequestException({
        message: IM.organisationKraPinInvalid(org.kraPin),
        code: 'BAD_REQUEST',
      });
    const issuedAt = new Date();
    const lines = linesOf(order, doc, tranche);
    const others = await this.invoices.ofOrder(order._id);
    const fee = others.some((i) => i.fee > 0) ? 0 : order.shippingFee;
    const t = tranche === null ? null : doc!.tranches.find((x) => x.number === tranche)!;
    const subtotal = lines.reduce((n, l) => n + l.amount, 0);
    const system = actor.role === 'system';
    const draft: InvoiceDraft = {
      organisationId: org._id,
      organisationName: org.name,
      organisationKraPin: org.kraPin,
      shopName: SHOP_IDENTITY.name,
      shopKraPin: this.config.shopKraPin ?? '',
      orderId: order._id,
      purchaseNumber: order.purchaseNumber,
      lpoNumber: order.quotation!.lpoNumber,
      tranche,
      trancheKey: keyOf(tranche),
      site: t ? { name: t.site.name, county: t.site.county, subCounty: t.site.subCounty } : null,
      lines,
      fee,
      total: subtotal + fee,
      issuedAt,
      dueDate: addDays(shopDay(issuedAt), org.terms.paymentDays),
      byId: system ? '' : actor.id,
      byName: system ? '' : actor.fullName,
      byRole: system ? 'system' : actor.role,
    };
    const result = await this.invoices.insert(draft);
    if (result.created) {
      const i = result.invoice;
      const what = tranche === null ? 'the whole order' : `tranche ${trancheLabel(tranche)}`;
      await this.events.emit('invoice.issued', {
        actor: system ? (actor as SystemActor) : actor,
        invoice: i,
        audit: {
          action: 'invoice.issued',
          text: `${system ? 'Invoice' : `${actor.fullName} issued invoice`} ${i.number ?? ''} for ${what} of order ${i.purchaseNumber} (${i.organisationName}): ${formatMoney(i.total)}, due ${i.dueDate}`.replace(
            /\s+/g,
            ' ',
          ),
          target: { type: 'order', id: i.orderId, label: i.purchaseNumber },
        },
      });
    }
    return result;
  }

  /** Refuses a tranche's invoice beside the whole order's, and the whole order's beside a tranche's. */
  private async refuseOther(order: OrderRecord, issuing: 'tranche' | 'order'): Promise<void> {
    const issued = await this.invoices.ofOrder(order._id);
    const other = issued.find((i) =>
      issuing === 'tranche' ? i.trancheKey === WHOLE_ORDER : i.trancheKey !== WHOLE_ORDER,
    );
    if (other)
      throw conflict(
        IM.alreadyInvoiced(`Order ${order.purchaseNumber}`, other.number ?? 'an invoice'),
      );
  }

  private async organisationOf(order: OrderRecord): Promise<OrganisationRecord> {
    const org = await this.orgs.findRecord(order.quotation!.organisationId);
    if (!org) throw conflict(IM.notOnQuotation);
    return org;
  }

  /** A listener's failure is logged (the sweep issues what it left), never the step's refusal. */
  private async quietly(what: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.error(`The invoice of ${what} was not issued: ${(error as Error).message}`);
    }
  }
}

/** The order has live tranches (planned, on their way or delivered). */
function hasTranches(doc: OrderTranchesRecord | null): boolean {
  return !!doc && doc.tranches.some((t) => t.state !== 'Cancelled');
}

/**
 * All of the order is delivered: in tranches, every live tranche delivered and nothing left to
 * plan; without, the order delivered or completed.
 */
export function wholeOrderDelivered(order: OrderRecord, doc: OrderTranchesRecord | null): boolean {
  if (!hasTranches(doc)) return ['Delivered', 'Completed'].includes(order.orderStatus);
  const live = doc!.tranches.filter((t) => t.state !== 'Cancelled');
  return (
    live.every((t) => t.state === 'Delivered') && lineStandings(doc!).every((s) => s.toPlan === 0)
  );
}

/**
 * What an invoice bills: a tranche's lines as delivered, or the whole order's (in tranches: what
 * its delivered tranches brought; without: every unit), each at the order line's quoted price.
 */
function linesOf(
  order: OrderRecord,
  doc: OrderTranchesRecord | null,
  tranche: number | null,
): InvoiceLine[] {
  const units = new Map<number, number>();
  if (tranche !== null) {
    const t = doc!.tranches.find((x) => x.number === tranche)!;
    for (const l of t.lines) units.set(l.line, (units.get(l.line) ?? 0) + (l.delivered ?? 0));
  } else if (hasTranches(doc)) {
    lineStandings(doc!).forEach((s, i) => units.set(i, s.delivered));
  } else {
    order.products.forEach((p, i) => units.set(i, p.quantity));
  }
  return [...units.entries()]
    .sort(([a], [b]) => a - b)
    .map(([line, quantity]) => {
      const p = order.products[line]!;
      return {
        line,
        productName: p.productName,
        unitName: p.unit.name,
        quantity,
        unitPrice: p.unitPrice,
        amount: quantity * p.unitPrice,
      };
    });
}
