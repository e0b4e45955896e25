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
import { AuditService } from '../audit/audit.service';
import { isDuplicateKeyError } from '../common/mongo-errors';
import type { Principal } from '../common/principal';
import { shopDay } from '../common/shop-clock';
import { OrderGateSales } from '../orders/order-gate-sales';
import { cashUpView, sessionView } from './till-cash-up';
import { TillRepository, type TillSessionRecord } from './till.repository';

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

  /** Closes the session with the cash counted: once (409 when closed already). */
  async close(actor: Principal, id: string, countedCash: number): Promise<TillCashUpView> {
    const session = await this.readable(actor, id);
    const closed = await this.repository.close(session._id, countedCash, new Date());
    if (!closed) throw new ConflictException(TILL_MESSAGES.sessionClosed);
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

  /** The session a clerk sells in: their own (403) and open (409). */
  async sellingIn(actor: Principal, id: string): Promise<TillSessionRecord> {
    const session = await this.repository.findById(id);
    if (!session) throw new NotFoundException(TILL_MESSAGES.noSession);
    if (session.staffId !== actor.id) throw new ForbiddenException(TILL_MESSAGES.sessionNotYours);
    if (session.state !== 'open') throw new ConflictException(TILL_MESSAGES.sessionClosed);
    return session;
  }

  private async view(session: TillSessionRecord): Promise<TillSessionView> {
    return sessionView(session, await this.sales.ofSession(session._id));
  }
}
