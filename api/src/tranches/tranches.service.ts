import {
  BadRequestException,
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import {
  PAGE_SIZE,
  toKenyanMsisdn,
  TRANCHE_LIMITS as L,
  TRANCHE_MESSAGES as TM,
  type TrancheQueue,
  type TrancheState,
} from '@spc/shared-contracts';
import { BatchesService, type BatchRecord } from '../batches/batches.service';
import { DomainEvents } from '../common/events/domain-events';
import { pageRequest, totalPages } from '../common/pagination';
import type { Actor, Principal } from '../common/principal';
import { addDays, shopDay } from '../common/shop-clock';
import type { OrderRecord } from '../orders/order.types';
import { TrancheOrders } from '../orders/tranche-orders';
import { OrganisationsService } from '../organisations/organisations.service';
import { ScannedDocuments } from '../scans/scanned-documents.service';
import type {
  ChangeTrancheDto,
  PlanTrancheDto,
  TrancheListQueryDto,
  TrancheSiteDto,
} from './dto/tranche.dto';
import type {
  OrderTranchesData,
  TrancheDto,
  TrancheListData,
  TrancheQueueCountsDto,
} from './dto/tranche-view.dto';
import type { TrancheEvent } from './tranche-events';
import {
  linesOf,
  seedlingsOf,
  trancheName,
  type OrderTranchesRecord,
  type SiteRecord,
  type TrancheLineRecord,
  type TrancheRecord,
} from './tranche-record';
import {
  assertTrancheStep,
  checkBatches,
  checkDate,
  plannedLines,
  trancheOf,
} from './tranche-rules';
import { orderTranchesView, trancheView, type SignedNotes } from './tranche-views';
import { TranchesRepository, type TrancheFilter } from './tranches.repository';

/** How often a change is tried again when another change of the order's tranches came first. */
const ATTEMPTS = 8;

export const isShop = (actor: Actor) => actor.role === 'staff' || actor.role === 'admin';

/** The 404 of an order the caller may not see: the words of every other order route. */
export const noOrder = () => new NotFoundException('No order with this id');

/**
 * An order's tranches (issue 43): the reads (the shop's, and the organisation's people's), and
 * the plan: planned, changed and cancelled while planned. Sending a tranche out and recording its
 * signed note are `TrancheSteps`. Each change is one compare-and-set of the order's tranches
 * document, tried again when another change came first.
 */
@Injectable()
export class TranchesService {
  private readonly logger = new Logger(TranchesService.name);

  constructor(
    private readonly repository: TranchesRepository,
    private readonly orders: TrancheOrders,
    private readonly batches: BatchesService,
    private readonly orgs: OrganisationsService,
    private readonly events: DomainEvents,
    private readonly scans: ScannedDocuments,
  ) {}

  /** The signed notes attached to these orders' tranches: by order id, then by label (`T2`). */
  signedNotes(orderIds: string[]): Promise<Map<string, SignedNotes>> {
    return this.scans.aboutParts('order', orderIds, 'signedNote');
  }

  /** The signed notes attached to one order's tranches, by label. */
  async signedNotesOf(orderId: string): Promise<SignedNotes | undefined> {
    return (await this.signedNotes([orderId])).get(orderId);
  }

  /**
   * The order, for a caller who may read its tranches: the shop any; a customer the order they
   * placed, or one of their organisation's orders from quotations. Any other: 404, as a missing id.
   */
  async readable(actor: Principal, orderId: string): Promise<OrderRecord> {
    const order = await this.orders.find(orderId);
    if (!order) throw noOrder();
    if (isShop(actor) || order.placedBy === actor.id) return order;
    if (order.quotation) {
      const member = await this.orgs.membership(actor.id);
      if (member?.organisation._id === order.quotation.organisationId) return order;
    }
    throw noOrder();
  }

  /** An order's tranches with where each line stands (an ordinary order: none, no lines). */
  async ofOrder(actor: Principal, orderId: string): Promise<OrderTranchesData> {
    const order = await this.readable(actor, orderId);
    const [doc, notes] = await Promise.all([
      this.repository.find(order._id),
      this.signedNotesOf(order._id),
    ]);
    return orderTranchesView(order, doc, notes);
  }

  async one(actor: Principal, orderId: string, number: number): Promise<TrancheDto> {
    const order = await this.readable(actor, orderId);
    const doc = await this.repository.find(order._id);
    const tranche = trancheOf(doc, order.purchaseNumber, number);
    return trancheView(doc!, tranche, await this.signedNotesOf(order._id));
  }

  /**
   * The desk's list (the shop: every order's) or an organisation's people's (their
   * organisation's), by day; filtered by state, desk bucket and days.
   */
  async list(actor: Principal, query: TrancheListQueryDto): Promise<TrancheListData> {
    const { page, limit, skip } = pageRequest(query, PAGE_SIZE.orders);
    let organisationId: string | undefined;
    if (!isShop(actor)) {
      const member = await this.orgs.membership(actor.id);
      if (!member) return { tranches: [], total: 0, page, totalPages: 0 };
      organisationId = member.organisation._id;
    }
    const filter = narrowed(
      { organisationId, states: query.state ? [query.state] : undefined },
      query.from,
      query.to,
    );
    const bucket = query.queue ? queueFilter(query.queue, shopDay(new Date())) : {};
    const { items, total } = await this.repository.list(both(filter, bucket), skip, limit);
    const names = new Map<string, string>();
    for (const id of new Set(items.map((i) => i.organisationId)))
      names.set(id, (await this.orgs.findRecord(id))?.name ?? '');
    const notes = await this.signedNotes(items.map((i) => i.orderId));
    return {
      tranches: items.map((i) => ({
        ...trancheView(
          {
            _id: i.orderId,
            purchaseNumber: i.purchaseNumber,
            lpoNumber: i.lpoNumber,
            lines: i.lines,
          },
          i.tranche,
          notes.get(i.orderId),
        ),
        organisationName: names.get(i.organisationId) ?? '',
      })),
      total,
      page,
      totalPages: totalPages(total, limit),
    };
  }

  /** How many tranches wait in each bucket of the desk. */
  async queueCounts(): Promise<TrancheQueueCountsDto> {
    const today = shopDay(new Date());
    const [toDispatch, upcoming, awaitingSignature] = await this.repository.count([
      queueFilter('toDispatch', today),
      queueFilter('upcoming', today),
      queueFilter('awaitingSignature', today),
    ]);
    return { toDispatch: toDispatch!, upcoming: upcoming!, awaitingSignature: awaitingSignature! };
  }

  /**
   * A new tranche: a site, a day and units of the order's lines, within what each line holds
   * beside the other live tranches, not dated before a growing batch of its lines is ready. The
   * order is delivered in tranches from now on.
   */
  async plan(actor: Principal, orderId: string, dto: PlanTrancheDto): Promise<TrancheDto> {
    const found = await this.shopOrder(orderId);
    const today = shopDay(new Date());
    return this.change(
      found,
      async (doc, order) => {
        if (doc.next > L.perOrder)
          throw new ConflictException({ message: TM.tooMany, code: 'CONFLICT' });
        const lines = plannedLines(doc, dto.lines, null);
        checkDate(dto.date, today);
        checkBatches(doc, lines, dto.date, await this.batchesOf(doc, lines));
        const tranche: TrancheRecord = {
          number: doc.next,
          state: 'Planned',
          date: dto.date,
          site: siteOf(dto.site),
          lines,
          plannedAt: new Date(),
          changedAt: null,
          dispatchedAt: null,
          signedBy: null,
          signedAt: null,
          recordedAt: null,
          cancelledAt: null,
          remindedFor: null,
        };
        return {
          tranches: [...doc.tranches, tranche],
          next: doc.next + 1,
          tranche,
          event: 'tranche.planned' as const,
          audit: {
            action: 'tranche.plan',
            text: `${actor.fullName} planned ${trancheName(order, tranche.number)} for ${tranche.date} (${seedlingsOf(doc, tranche).toLocaleString('en-US')} seedlings to ${tranche.site.county})`,
          },
        };
      },
      actor,
    );
  }

  /** A planned tranche's site, day or lines changed, under the plan's rules. */
  async changeOne(
    actor: Principal,
    orderId: string,
    number: number,
    dto: ChangeTrancheDto,
  ): Promise<TrancheDto> {
    // A field sent as null is not sent (as in every update of the API).
    if (dto.site == null && dto.date == null && dto.lines == null)
      throw new BadRequestException({ message: TM.nothingToChange, code: 'VALIDATION_FAILED' });
    const found = await this.shopOrder(orderId);
    const today = shopDay(new Date());
    return this.change(
      found,
      async (doc, order) => {
        const t = trancheOf(doc, order.purchaseNumber, number);
        assertTrancheStep('change', t, order.purchaseNumber);
        const lines = dto.lines ? plannedLines(doc, dto.lines, number) : t.lines;
        const date = dto.date ?? t.date;
        if (dto.date != null) checkDate(date, today);
        if (dto.lines || dto.date != null)
          checkBatches(doc, lines, date, await this.batchesOf(doc, lines));
        const tranche: TrancheRecord = {
          ...t,
          site: dto.site ? siteOf(dto.site) : t.site,
          date,
          lines,
          changedAt: new Date(),
        };
        const what = [
          dto.site ? 'its site' : '',
          dto.date != null ? `its date (${t.date} → ${date})` : '',
          dto.lines ? 'its lines' : '',
        ].filter(Boolean);
        return {
          tranches: doc.tranches.map((x) => (x.number === number ? tranche : x)),
          next: doc.next,
          tranche,
          event: 'tranche.changed' as const,
          audit: {
            action: 'tranche.change',
            text: `${actor.fullName} changed ${what.join(', ')} of ${trancheName(order, number)}`,
          },
        };
      },
      actor,
    );
  }

  /** A planned tranche called off: its units are free to plan again. */
  async cancel(actor: Principal, orderId: string, number: number): Promise<TrancheDto> {
    const found = await this.shopOrder(orderId);
    return this.change(
      found,
      async (doc, order) => {
        const t = trancheOf(doc, order.purchaseNumber, number);
        assertTrancheStep('cancel', t, order.purchaseNumber);
        const tranche: TrancheRecord = { ...t, state: 'Cancelled', cancelledAt: new Date() };
        return {
          tranches: doc.tranches.map((x) => (x.number === number ? tranche : x)),
          next: doc.next,
          tranche,
          event: 'tranche.cancelled' as const,
          audit: {
            action: 'tranche.cancel',
            text: `${actor.fullName} cancelled ${trancheName(order, number)} (planned for ${t.date})`,
          },
        };
      },
      actor,
      { statusChecked: false },
    );
  }

  /**
   * The order was cancelled or closed: its planned tranches are called off with it (no audit
   * entry of their own: the order's cancellation has one). Never throws (a listener's work).
   */
  async cancelPlannedOf(orderId: string): Promise<void> {
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const doc = await this.repository.find(orderId);
        if (!doc || !doc.tranches.some((t) => t.state === 'Planned')) return;
        const at = new Date();
        const tranches = doc.tranches.map((t) =>
          t.state === 'Planned' ? { ...t, state: 'Cancelled' as const, cancelledAt: at } : t,
        );
        if (await this.repository.replace(orderId, doc.rev, { ...doc, tranches })) return;
      }
    } catch (error) {
      this.logger.error(
        `The planned tranches of order ${orderId} were not called off: ${(error as Error).message}`,
      );
    }
  }

  /** A deleted order's tranches go with it. */
  forget(orderId: string): Promise<void> {
    return this.repository.deleteFor(orderId);
  }

  /**
   * An order the shop plans tranches of: placed, and made from a quotation (409, as the scanned
   * LPO's: the request is well formed, the order is not one that has tranches; an ordinary order is
   * delivered whole).
   */
  async shopOrder(orderId: string): Promise<OrderRecord> {
    const order = await this.orders.find(orderId);
    if (!order) throw noOrder();
    if (!order.quotation)
      throw new ConflictException({
        message: TM.notFromQuotation(order.purchaseNumber),
        code: 'CONFLICT',
      });
    return order;
  }

  /** The batches a tranche's lines are held on, by id. */
  async batchesOf(
    doc: Pick<OrderTranchesRecord, 'lines'>,
    lines: Pick<TrancheLineRecord, 'line'>[],
  ): Promise<Map<string, BatchRecord>> {
    const ids = [...new Set(lines.flatMap((l) => doc.lines[l.line]!.batchId ?? []))];
    const found = ids.length ? await this.batches.findByIds(ids) : [];
    return new Map(found.map((b) => [b._id, b]));
  }

  /**
   * One change of the order's tranches (planned, changed, cancelled), as `make` works it out from
   * the document as read; written if nothing changed it meanwhile, else worked out again. With
   * `statusChecked` (the default), the order must still take tranches: it is marked delivered in
   * tranches first (409 in the state table's words when it may not take one).
   */
  private async change(
    order: OrderRecord,
    make: (
      doc: OrderTranchesRecord,
      order: OrderRecord,
    ) => Promise<{
      tranches: TrancheRecord[];
      next: number;
      tranche: TrancheRecord;
      event: 'tranche.planned' | 'tranche.changed' | 'tranche.cancelled';
      audit: { action: string; text: string };
    }>,
    actor: Principal,
    options: { statusChecked?: boolean } = {},
  ): Promise<TrancheDto> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const stored = await this.repository.find(order._id);
      const doc: OrderTranchesRecord = stored ?? {
        _id: order._id,
        purchaseNumber: order.purchaseNumber,
        organisationId: order.quotation!.organisationId,
        lpoNumber: order.quotation!.lpoNumber,
        lines: linesOf(order),
        tranches: [],
        next: 1,
        rev: 0,
        work: [],
      };
      const made = await make(doc, order);
      if (options.statusChecked !== false) order = await this.markInTranches(order);
      const written = stored
        ? await this.repository.replace(order._id, doc.rev, {
            tranches: made.tranches,
            next: made.next,
            work: doc.work,
          })
        : await this.repository.create({ ...doc, tranches: made.tranches, next: made.next });
      if (!written) continue;
      // Cancelled as this was written (the listener may have read the tranches before it).
      const now = options.statusChecked === false ? null : await this.orders.find(order._id);
      if (now && now.orderStatus === 'Cancelled') {
        await this.cancelPlannedOf(order._id);
        throw refusedStatus(now);
      }
      await this.events.emit(made.event, {
        actor,
        orderId: order._id,
        purchaseNumber: order.purchaseNumber,
        accountId: order.placedBy,
        tranche: made.tranche,
        seedlings: seedlingsOf(doc, made.tranche),
        audit: {
          ...made.audit,
          target: { type: 'order', id: order._id, label: order.purchaseNumber },
        },
      } satisfies TrancheEvent);
      return trancheView(doc, made.tranche, await this.signedNotesOf(order._id));
    }
    throw new ConflictException({
      message:
        "The order's tranches changed while you were working on them; please reload and try again",
      code: 'CONFLICT',
    });
  }

  /** The order marked delivered in tranches (409 when it may take no tranche now). */
  private async markInTranches(order: OrderRecord): Promise<OrderRecord> {
    const marked = await this.orders.markInTranches(order._id);
    if (marked) return marked;
    throw refusedStatus((await this.orders.find(order._id)) ?? order);
  }
}

/** The 409 of an order that takes no tranche now, in words. */
export function refusedStatus(order: OrderRecord): ConflictException {
  const words: Record<string, string> = {
    InTransit: 'was sent out whole',
    Delivered: 'is delivered',
    Completed: 'is completed',
    Cancelled: 'is cancelled',
  };
  return new ConflictException({
    message: `Order ${order.purchaseNumber} ${words[order.orderStatus] ?? `is ${order.orderStatus}`}: its tranches can no longer be planned, changed or sent`,
    code: 'ILLEGAL_TRANSITION',
  });
}

/** A site as stored: its contact's phone in its +254 form (the DTO checked it is a mobile). */
function siteOf(site: TrancheSiteDto): SiteRecord {
  return {
    name: site.name,
    county: site.county,
    subCounty: site.subCounty ?? '',
    contact: {
      name: site.contact.name,
      phone: toKenyanMsisdn(site.contact.phone) ?? site.contact.phone,
    },
  };
}

/** The tranches of one desk bucket today. */
function queueFilter(queue: TrancheQueue, today: string): TrancheFilter {
  switch (queue) {
    case 'toDispatch':
      return { states: ['Planned'], to: today };
    case 'upcoming':
      return { states: ['Planned'], from: addDays(today, 1) };
    case 'awaitingSignature':
      return { states: ['Dispatched'] };
  }
}

/** A filter with its days narrowed to from–to (each left out: open). */
function narrowed(filter: TrancheFilter, from?: string, to?: string): TrancheFilter {
  return { ...filter, ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** Both filters at once: the states both allow, the later start and the earlier end. */
function both(a: TrancheFilter, b: TrancheFilter): TrancheFilter {
  const states: TrancheState[] | undefined =
    a.states && b.states ? a.states.filter((s) => b.states!.includes(s)) : (a.states ?? b.states);
  const from = [a.from, b.from].filter(Boolean).sort().pop();
  const to = [a.to, b.to].filter(Boolean).sort()[0];
  return {
    organisationId: a.organisationId ?? b.organisationId,
    states,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}
