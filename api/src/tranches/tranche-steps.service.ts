import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { TRANCHE_LIMITS as L, TRANCHE_MESSAGES as TM, trancheLabel } from '@spc/shared-contracts';
import { DomainEvents } from '../common/events/domain-events';
import type { LineHold } from '../common/order-hold';
import type { Actor, Principal } from '../common/principal';
import { Scheduler } from '../common/scheduler/scheduler';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TrancheOrders } from '../orders/tranche-orders';
import type { DeliveredLineDto, RecordDeliveryDto } from './dto/tranche.dto';
import type { TrancheDto } from './dto/tranche-view.dto';
import type { TrancheEvent } from './tranche-events';
import {
  everyUnitDelivered,
  lineWords,
  seedlingsOf,
  trancheName,
  type OrderTranchesRecord,
  type TrancheLineRecord,
  type TrancheRecord,
  type WorkRecord,
} from './tranche-record';
import { assertTrancheStep, orderLineOf, trancheOf } from './tranche-rules';
import { trancheView } from './tranche-views';
import { TranchesRepository } from './tranches.repository';
import { refusedStatus, TranchesService } from './tranches.service';

/** How often a step is tried again when another change of the order's tranches came first. */
const ATTEMPTS = 8;

/**
 * A tranche sent out and signed for (issue 43). Each step is claimed by one compare-and-set of
 * the order's tranches document that also records the work it leaves (`work`): the stock it
 * moves (a batch's seedlings handed over, a short part brought back), the order's status (in
 * transit at its first tranche, delivered at its last), the audit entry and the site contact's
 * text. The step then does that work and clears it; a crash between is finished by the sweep,
 * each piece once (the batches move once per key; the order's steps are conditional; the texts
 * are keyed). Two clerks at once: one claim wins, the other reads the tranche as it now is.
 */
@Injectable()
export class TrancheSteps implements OnModuleInit {
  private readonly logger = new Logger(TrancheSteps.name);

  constructor(
    private readonly repository: TranchesRepository,
    private readonly tranches: TranchesService,
    private readonly orders: TrancheOrders,
    private readonly events: DomainEvents,
    private readonly scheduler: Scheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.declare({
      name: 'tranches.finish',
      everyMs: Math.max(1000, this.config.orders.reconcileAfterMs / 2),
      runsOn: 'one',
      atStart: true,
      run: (now) => this.finishLeft(now),
    });
  }

  /**
   * The load leaves: only its lines' units (a batch's from the order's hold on it, once it is
   * ready: 409 with its expected day otherwise); the order is in transit from its first tranche.
   */
  async dispatch(actor: Principal, orderId: string, number: number): Promise<TrancheDto> {
    let order = await this.tranches.shopOrder(orderId);
    let claimed: { doc: OrderTranchesRecord; work: WorkRecord } | null = null;
    for (let attempt = 0; attempt < ATTEMPTS && !claimed; attempt++) {
      const doc = await this.repository.find(orderId);
      const t = trancheOf(doc, order.purchaseNumber, number);
      assertTrancheStep('dispatch', t, order.purchaseNumber);
      order = (await this.orders.find(orderId)) ?? order;
      if (!this.orders.takesTranches(order) || !order.inTranches) throw refusedStatus(order);
      await this.checkReady(doc!, t);
      const now = new Date();
      const work: WorkRecord = { what: 'dispatched', number, at: now, by: actorOf(actor) };
      const sent: TrancheRecord = {
        ...t,
        state: 'Dispatched',
        dispatchedAt: now,
        lines: t.lines.map((l) => ({ ...l, dispatched: l.quantity })),
      };
      if (await this.write(doc!, sent, [...doc!.work, work])) claimed = { doc: doc!, work };
    }
    if (!claimed) throw changedMeanwhile();
    await this.finish(orderId, claimed.work, { throwRefusal: true });
    return this.view(orderId, number);
  }

  /**
   * The signed note recorded: who signed and when (not in the future, not before the load left),
   * what arrived of each line (at most what left; a short line with its reason). The short part
   * came back: it is held for the order again, to go in a later tranche. Once every unit of the
   * order is delivered, the order is.
   */
  async recordDelivery(
    actor: Principal,
    orderId: string,
    number: number,
    dto: RecordDeliveryDto,
  ): Promise<TrancheDto> {
    const order = await this.tranches.shopOrder(orderId);
    let work: WorkRecord | null = null;
    for (let attempt = 0; attempt < ATTEMPTS && !work; attempt++) {
      const doc = await this.repository.find(orderId);
      const t = trancheOf(doc, order.purchaseNumber, number);
      assertTrancheStep('recordDelivery', t, order.purchaseNumber);
      // Its dispatch is finished first (a crash may have left it; one under way is waited for).
      const left = doc!.work.find((w) => w.what === 'dispatched' && w.number === number);
      if (left) {
        const mine = this.stale(left) ? await this.claim(orderId, left) : null;
        if (!mine)
          throw new ConflictException({
            message: `${capital(trancheName(order, number))} is being dispatched at this moment: try again shortly`,
            code: 'CONFLICT',
          });
        await this.finish(orderId, mine);
        continue;
      }
      const now = new Date();
      const signedAt = new Date(dto.signedAt);
      if (signedAt.getTime() > now.getTime() + L.clockSkewMinutes * 60_000)
        throw invalid(TM.signedAtFuture, 'signedAt');
      if (t.dispatchedAt && signedAt < t.dispatchedAt)
        throw invalid(
          `The note cannot be signed before the load left (${t.dispatchedAt.toISOString()})`,
          'signedAt',
        );
      const lines = deliveredLines(doc!, t, dto.lines);
      const next: TrancheRecord = {
        ...t,
        state: 'Delivered',
        signedBy: dto.signedBy,
        signedAt,
        recordedAt: now,
        lines,
      };
      const mine: WorkRecord = { what: 'delivered', number, at: now, by: actorOf(actor) };
      if (await this.write(doc!, next, [...doc!.work, mine])) work = mine;
    }
    if (!work) throw changedMeanwhile();
    await this.finish(orderId, work);
    return this.view(orderId, number);
  }

  /**
   * Finishes the work steps left before `now` minus the reconcile delay (a crash between a step's
   * claim and its work), each once.
   */
  async finishLeft(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.orders.reconcileAfterMs);
    let done = 0;
    for (const doc of await this.repository.withWorkBefore(before)) {
      for (const work of doc.work.filter((w) => new Date(w.at) < before)) {
        try {
          // Claimed first: a second sweeper (or a clerk's step) beside this one leaves it.
          const mine = await this.claim(doc._id, work);
          if (!mine) continue;
          await this.finish(doc._id, mine);
          done++;
        } catch (error) {
          this.logger.error(
            `Could not finish the ${work.what} step of ${trancheName(doc, work.number)}: ${(error as Error).message}`,
          );
        }
      }
    }
    return done;
  }

  /**
   * The work a step left: for a dispatch, the order in transit (refused: the claim is taken back
   * and, with `throwRefusal`, the refusal answered), the batches' seedlings handed over, the
   * audit entry and the contact's text; for a signed note, the short parts brought back, the
   * order delivered once every unit is, the audit entry. Then the work is cleared.
   */
  private async finish(
    orderId: string,
    work: WorkRecord,
    options: { throwRefusal?: boolean } = {},
  ): Promise<void> {
    const doc = await this.repository.find(orderId);
    const order = await this.orders.find(orderId);
    if (!doc || !order) return;
    const t = doc.tranches.find((x) => x.number === work.number)!;
    const by: Actor = { id: work.by.id, fullName: work.by.fullName, role: work.by.role as never };
    const label = trancheLabel(t.number);
    if (work.what === 'dispatched') {
      try {
        await this.orders.sentOut(by, order, t.number);
      } catch (error) {
        await this.undoDispatch(orderId, work);
        if (options.throwRefusal) throw error;
        this.logger.warn(
          `${trancheName(doc, t.number)} did not go out: ${(error as Error).message}`,
        );
        return;
      }
      for (const [hold, seedlings] of byHold(doc, t, (l) => l.dispatched ?? 0))
        await this.orders.handOverPart(
          order,
          hold,
          {
            seedlings,
            key: `tranche:${orderId}:${label}:out`,
            note: `Tranche ${label} of order ${order.purchaseNumber} sent out`,
          },
          by,
        );
      await this.announce('tranche.dispatched', by, doc, t, {
        action: 'tranche.dispatch',
        text: `${by.fullName} dispatched ${trancheName(doc, t.number)}: ${seedlingsOf(doc, t, (l) => l.dispatched ?? 0).toLocaleString('en-US')} seedlings to its site in ${t.site.county}`,
      });
    } else {
      const short = (l: TrancheLineRecord) => Math.max(0, (l.dispatched ?? 0) - (l.delivered ?? 0));
      for (const [hold, seedlings] of byHold(doc, t, short))
        if (seedlings > 0)
          await this.orders.bringBackPart(
            order,
            hold,
            {
              seedlings,
              key: `tranche:${orderId}:${label}:back`,
              note: `Tranche ${label} of order ${order.purchaseNumber} delivered short: ${seedlings} seedlings came back, to go again`,
            },
            by,
          );
      if (everyUnitDelivered(doc)) await this.orders.allDelivered(by, order, t.number);
      const shortLines = t.lines.filter((l) => short(l) > 0).length;
      await this.announce('tranche.delivered', by, doc, t, {
        action: 'tranche.deliver',
        text: `${by.fullName} recorded the signed delivery note of ${trancheName(doc, t.number)}: ${
          shortLines
            ? `${shortLines === 1 ? '1 line' : `${shortLines} lines`} short (the rest came back, to deliver later)`
            : 'everything arrived'
        }`,
      });
    }
    await this.clear(orderId, work);
  }

  /** A dispatch the order refused: the tranche is planned again (cancelled with a cancelled order). */
  private async undoDispatch(orderId: string, work: WorkRecord): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const doc = await this.repository.find(orderId);
      const t = doc?.tranches.find((x) => x.number === work.number);
      if (!doc || !t || !doc.work.some((w) => same(w, work))) return;
      const order = await this.orders.find(orderId);
      const back: TrancheRecord =
        order?.orderStatus === 'Cancelled'
          ? { ...t, state: 'Cancelled', cancelledAt: new Date() }
          : {
              ...t,
              state: 'Planned',
              dispatchedAt: null,
              lines: t.lines.map((l) => ({ ...l, dispatched: null })),
            };
      if (
        await this.write(
          doc,
          back,
          doc.work.filter((w) => !same(w, work)),
        )
      )
        return;
    }
  }

  /** Work left longer than the reconcile delay: its step is taken to have died. */
  private stale(work: WorkRecord): boolean {
    return Date.now() - new Date(work.at).getTime() > this.config.orders.reconcileAfterMs;
  }

  /**
   * Takes over work a step left (its time set to now, in one compare-and-set on the time read):
   * null when another took it first or it is done.
   */
  private async claim(orderId: string, work: WorkRecord): Promise<WorkRecord | null> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const doc = await this.repository.find(orderId);
      const now = doc?.work.find((w) => same(w, work));
      if (!doc || !now || new Date(now.at).getTime() !== new Date(work.at).getTime()) return null;
      const mine = { ...now, at: new Date() };
      const rest = doc.work.map((w) => (same(w, work) ? mine : w));
      if (await this.repository.replace(orderId, doc.rev, { ...doc, work: rest })) return mine;
    }
    return null;
  }

  /** The work done: taken off the order's tranches. */
  private async clear(orderId: string, work: WorkRecord): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const doc = await this.repository.find(orderId);
      if (!doc || !doc.work.some((w) => same(w, work))) return;
      const rest = doc.work.filter((w) => !same(w, work));
      if (await this.repository.replace(orderId, doc.rev, { ...doc, work: rest })) return;
    }
  }

  /**
   * Refuses (409) a load whose batch is not ready, with its expected day (or that it failed);
   * ready stock goes whenever the order may.
   */
  private async checkReady(doc: OrderTranchesRecord, t: TrancheRecord): Promise<void> {
    const batches = await this.tranches.batchesOf(doc, t.lines);
    for (const l of t.lines) {
      const line = doc.lines[l.line]!;
      if (!line.batchId) continue;
      const batch = batches.get(line.batchId);
      if (batch?.status === 'Ready') continue;
      const name = trancheName(doc, t.number);
      if (!batch || batch.status === 'Failed')
        throw new ConflictException({
          message: `${capital(name)} holds seedlings of ${line.productName} on a batch that failed: change the tranche, or cancel it`,
          code: 'BATCH_FAILED',
        });
      throw new ConflictException({
        message: `${capital(name)} holds seedlings of ${line.productName} on a batch that is not ready yet (expected ${batch.readyOn}): it goes out once the batch is ready`,
        code: 'ILLEGAL_TRANSITION',
      });
    }
  }

  /** Writes one tranche and the work left, if nothing changed the document since it was read. */
  private write(doc: OrderTranchesRecord, tranche: TrancheRecord, work: WorkRecord[]) {
    return this.repository.replace(doc._id, doc.rev, {
      tranches: doc.tranches.map((x) => (x.number === tranche.number ? tranche : x)),
      next: doc.next,
      work,
    });
  }

  private async announce(
    name: 'tranche.dispatched' | 'tranche.delivered',
    actor: Actor,
    doc: OrderTranchesRecord,
    t: TrancheRecord,
    audit: { action: string; text: string },
  ): Promise<void> {
    const order = await this.orders.find(doc._id);
    await this.events.emit(name, {
      actor,
      orderId: doc._id,
      purchaseNumber: doc.purchaseNumber,
      accountId: order?.placedBy ?? null,
      tranche: t,
      seedlings: seedlingsOf(doc, t, (l) => l.dispatched ?? l.quantity),
      sms: name === 'tranche.dispatched' ? 'tranche-sent' : undefined,
      audit: { ...audit, target: { type: 'order', id: doc._id, label: doc.purchaseNumber } },
    } satisfies TrancheEvent);
  }

  private async view(orderId: string, number: number): Promise<TrancheDto> {
    const [doc, notes] = await Promise.all([
      this.repository.find(orderId),
      this.tranches.signedNotesOf(orderId),
    ]);
    return trancheView(
      doc!,
      doc!.tranches.find((t) => t.number === number)!,
      notes,
    );
  }
}

const same = (a: WorkRecord, b: WorkRecord) => a.what === b.what && a.number === b.number;

const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName, role: a.role });

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const invalid = (message: string, field: string) =>
  new BadRequestException({
    message,
    code: 'VALIDATION_FAILED',
    errors: [{ field, messages: [message] }],
  });

const changedMeanwhile = () =>
  new ConflictException({
    message:
      "The order's tranches changed while you were working on them; please reload and try again",
    code: 'CONFLICT',
  });

/** The seedlings of a tranche's lines by what holds them (ready stock, each batch). */
function byHold(
  doc: OrderTranchesRecord,
  t: TrancheRecord,
  units: (l: TrancheLineRecord) => number,
): [LineHold, number][] {
  const groups = new Map<string, [LineHold, number]>();
  for (const l of t.lines) {
    const line = doc.lines[l.line]!;
    const key = line.batchId ? `batch:${line.batchId}` : 'stock';
    const hold: LineHold = line.batchId ? { on: 'batch', batchId: line.batchId } : { on: 'stock' };
    const [, n] = groups.get(key) ?? [hold, 0];
    groups.set(key, [hold, n + units(l) * line.seedlings]);
  }
  return [...groups.values()];
}

/**
 * What the note says arrived of each line of the load: every line once (400 naming what is
 * missing or not in the load), at most what left, a short one with its reason; none given:
 * everything arrived.
 */
function deliveredLines(
  doc: OrderTranchesRecord,
  t: TrancheRecord,
  given: DeliveredLineDto[] | undefined,
): TrancheLineRecord[] {
  if (!given) return t.lines.map((l) => ({ ...l, delivered: l.dispatched, shortReason: null }));
  const said = new Map<number, DeliveredLineDto>();
  given.forEach((g, i) => {
    const line = orderLineOf(doc.lines, g, doc.purchaseNumber, `lines.${i}`);
    if (!t.lines.some((l) => l.line === line))
      throw invalid(
        `This line of the order is not in tranche ${trancheLabel(t.number)}`,
        `lines.${i}`,
      );
    if (said.has(line)) throw invalid(TM.duplicateLine, `lines.${i}`);
    said.set(line, g);
  });
  return t.lines.map((l) => {
    const g = said.get(l.line);
    const line = doc.lines[l.line]!;
    const i = given.indexOf(g!);
    if (!g)
      throw invalid(
        `Say what arrived of every line of the load: ${lineWords(line, l.dispatched ?? l.quantity)} is missing`,
        'lines',
      );
    const sent = l.dispatched ?? l.quantity;
    if (g.delivered > sent)
      throw invalid(TM.deliveredTooMany(lineWords(line, sent), sent), `lines.${i}.delivered`);
    const reason = g.shortReason?.trim() ?? '';
    if (g.delivered < sent && !reason)
      throw invalid(TM.shortReasonRequired, `lines.${i}.shortReason`);
    return { ...l, delivered: g.delivered, shortReason: g.delivered < sent ? reason : null };
  });
}
