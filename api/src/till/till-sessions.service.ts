import {
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  formatMoney,
  TILL_MESSAGES,
  type TillCashUpView,
  type TillSessionView,
} from '@spc/shared-contracts';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Principal } from '../common/principal';
import { shopDay } from '../common/shop-clock';
import { OrderGateSales } from '../orders/order-gate-sales';
import { cashUpView, sessionView } from './till-cash-up';
import { TillRepository, type TillSessionRecord } from './till.repository';

/** How long a close waits for the sales being made in its session. */
const CLOSE_WAIT_MS = 20_000;
const CLOSE_STEP_MS = 100;
/** A sale begun this long ago is dead (its instance crashed): a close no longer waits for it. */
const WORK_STALE_MS = 120_000;
/** A close begun this long ago is dead: sales start in the session again. */
const CLOSING_STALE_MS = 60_000;

const target = (s: TillSessionRecord) => ({
  type: 'till-session',
  id: s._id,
  label: `${s.staffName} ${s.day}`,
});

/**
 * Till sessions (issue 46): a clerk opens one with a float (one open at a time), sells in it,
 * and closes it with the cash counted, once; an admin reopens one. Staff see their own, admins all.
 */
@Injectable()
export class TillSessions {
  constructor(
    private readonly repository: TillRepository,
    private readonly sales: OrderGateSales,
    private readonly audit: AuditService,
  ) {}

  async open(actor: Principal, float: number): Promise<TillSessionView> {
    const now = new Date();
    let session: TillSessionRecord;
    try {
      session = await this.repository.open({
        staffId: actor.id,
        staffName: actor.fullName,
        day: shopDay(now),
        openedAt: now,
        float,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new ConflictException(TILL_MESSAGES.sessionOpen);
      throw error;
    }
    await this.audit.record(
      actor,
      'till.session.open',
      `${actor.fullName} opened a till session with a float of ${formatMoney(float)}`,
      target(session),
    );
    return sessionView(session, []);
  }

  /** The caller's open session, or null. */
  async current(actor: Principal): Promise<TillSessionView | null> {
    const session = await this.repository.openOf(actor.id);
    return session ? this.view(session) : null;
  }

  /** A day's sessions: a clerk's own, or every one for an admin. */
  async ofDay(actor: Principal, day: string): Promise<TillSessionView[]> {
    const sessions = await this.repository.ofDay(
      day,
      actor.role === 'admin' ? undefined : actor.id,
    );
    return Promise.all(sessions.map((s) => this.view(s)));
  }

  async cashUp(actor: Principal, id: string): Promise<TillCashUpView> {
    const session = await this.readable(actor, id);
    const orders = await this.sales.ofSession(session._id);
    const entries = await this.sales.entriesOf(orders.map((o) => o._id));
    return cashUpView(session, orders, entries);
  }

  /**
   * Closes the session with the cash counted: once (409 when closed already). No new sale starts
   * in it meanwhile; the ones being made are waited for (409 `saleInProgress` past `CLOSE_WAIT_MS`),
   * so the cash-up counted holds every sale the session took.
   */
  async close(actor: Principal, id: string, countedCash: number): Promise<TillCashUpView> {
    const session = await this.readable(actor, id);
    if (!(await this.repository.markClosing(session._id, new Date())))
      throw new ConflictException(TILL_MESSAGES.sessionClosed);
    await this.closeWhenIdle(session._id, countedCash);
    const cashUp = await this.cashUp(actor, id);
    const cash = cashUp.methods.find((m) => m.method === 'cash')!;
    await this.audit.record(
      actor,
      'till.session.close',
      `${actor.fullName} closed the till session of ${session.staffName} (${session.day}): ${formatMoney(countedCash)} counted, ${formatMoney(cash.expected)} expected`,
      target(session),
    );
    return cashUp;
  }

  /** Closes the session once no work is in it (409 when another close won, or work stays). */
  private async closeWhenIdle(id: string, countedCash: number): Promise<void> {
    const deadline = Date.now() + CLOSE_WAIT_MS;
    for (;;) {
      const now = new Date();
      const stale = new Date(now.getTime() - WORK_STALE_MS);
      if (await this.repository.close(id, countedCash, now, stale)) return;
      const current = await this.repository.findById(id);
      if (current?.state !== 'open') throw new ConflictException(TILL_MESSAGES.sessionClosed);
      if (Date.now() > deadline) {
        await this.repository.markClosing(id, null);
        throw new ConflictException(TILL_MESSAGES.saleInProgress);
      }
      await new Promise((resolve) => setTimeout(resolve, CLOSE_STEP_MS));
    }
  }

  /**
   * Runs a sale (a collection, a void, a refund) inside an open session not being closed: a close
   * waits for it. `staffId`: only in this clerk's own session. 404/403/409 (`closed`) otherwise.
   */
  async within<T>(
    id: string,
    closed: string,
    work: (session: TillSessionRecord) => Promise<T>,
    staffId?: string,
  ): Promise<T> {
    const now = new Date();
    const item = { id: randomUUID(), at: now };
    const stale = new Date(now.getTime() - CLOSING_STALE_MS);
    const session = await this.repository.beginWork(id, item, stale, staffId);
    if (!session) {
      const current = await this.repository.findById(id);
      if (!current) throw new NotFoundException(TILL_MESSAGES.noSession);
      if (staffId && current.staffId !== staffId)
        throw new ForbiddenException(TILL_MESSAGES.sessionNotYours);
      throw new ConflictException(closed);
    }
    try {
      return await work(session);
    } finally {
      await this.repository.endWork(session._id, item.id);
    }
  }

  /** An admin opens a closed session again (409 when open, or its clerk has another open). */
  async reopen(actor: Principal, id: string): Promise<TillSessionView> {
    const session = await this.readable(actor, id);
    let reopened: TillSessionRecord | null;
    try {
      reopened = await this.repository.reopen(session._id, actor.fullName, new Date());
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw new ConflictException(`${session.staffName} has another till session open`);
      throw error;
    }
    if (!reopened) throw new ConflictException('This till session is open already');
    await this.audit.record(
      actor,
      'till.session.reopen',
      `${actor.fullName} reopened the till session of ${session.staffName} (${session.day})`,
      target(session),
    );
    return this.view(reopened);
  }

  /** A session the caller may read: a clerk's own, any for an admin (404 otherwise). */
  async readable(actor: Principal, id: string): Promise<TillSessionRecord> {
    const session = await this.repository.findById(id);
    if (!session || (actor.role !== 'admin' && session.staffId !== actor.id))
      throw new NotFoundException('No till session with this id');
    return session;
  }

  /** The session a clerk sold in, open or not: their own (404, 403). */
  async own(actor: Principal, id: string): Promise<TillSessionRecord> {
    const session = await this.repository.findById(id);
    if (!session) throw new NotFoundException(TILL_MESSAGES.noSession);
    if (session.staffId !== actor.id) throw new ForbiddenException(TILL_MESSAGES.sessionNotYours);
    return session;
  }

  private async view(session: TillSessionRecord): Promise<TillSessionView> {
    return sessionView(session, await this.sales.ofSession(session._id));
  }
}
