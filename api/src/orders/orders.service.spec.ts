import type { ModuleRef } from '@nestjs/core';
import { BadRequestException, ConflictException, ForbiddenException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuditEventsListener } from '../audit/audit-events.listener';
import type { AuditService } from '../audit/audit.service';
import { DomainEvents, type DomainEvent } from '../common/events/domain-events';
import type { Principal } from '../common/principal';
import type { AppConfig } from '../config/app-config';
import type { MailQueue } from '../mail/mail-queue.service';
import type { SmsService } from '../sms/sms.service';
import type { UsersService } from '../users/users.service';
import { ORDER_STEPS, type OrderStep } from './order-actions';
import type { OrderEvent } from './order-events';
import { OrderFollowUps } from './order-follow-ups';
import type { OrderMails } from './order-mails';
import type { OrderMoney } from './order-money';
import type { OrderPlacementService } from './order-placement.service';
import type { OrderRecord } from './order.types';
import type { OrderLists } from './order-lists';
import type { OrdersRepository } from './orders.repository';
import { OrderLpoScans } from './order-lpo-scans';
import { OrdersService } from './orders.service';
import type { MailLogRepository } from '../mail/mail-log.repository';
import { SHOP_ACTOR } from './shop-actor';

const clerk: Principal = { id: 'u1', role: 'staff', fullName: 'Grace Njeri' };
const ID = '665f1c2b9d3e4a0012345679';

function order(changes: Partial<OrderRecord> = {}): OrderRecord {
  return {
    _id: ID,
    purchaseNumber: 'SPC-1001',
    orderStatus: 'Pending',
    paymentStatus: 'Pending',
    totalAmount: 1200,
    orderDate: '2026-11-20T08:00:00.000Z',
    guestInfo: { fullName: 'Wanjiru Kamau', email: 'w@example.com' },
    products: [],
    ...changes,
  } as unknown as OrderRecord;
}

/** The service with its repository replaced by an in-memory order that honours the guard. */
function setup(stored: OrderRecord) {
  let current = stored;
  const matches = (filter: Record<string, unknown>) =>
    Object.entries(filter).every(([key, want]) => {
      const have = (current as unknown as Record<string, unknown>)[key];
      if (want && typeof want === 'object' && '$in' in want)
        return (want.$in as unknown[]).includes(have);
      // `{ $not: { $gt: n } }`: absent, or not above n (a part-paid order's guard).
      if (want && typeof want === 'object' && '$not' in want)
        return !(typeof have === 'number' && have > (want.$not as { $gt: number }).$gt);
      // `{ $ne: v }`: absent, or another value (orders not on account).
      if (want && typeof want === 'object' && '$ne' in want) return have !== want.$ne;
      return have === want;
    });
  const repo = {
    findById: jest.fn(async () => current),
    delete: jest.fn(async () => true),
    transition: jest.fn(
      async (_id: string, filter: Record<string, unknown>, update: { $set: object }) => {
        if (!matches(filter)) return null;
        current = { ...current, ...update.$set };
        return current;
      },
    ),
  };
  const audit = { record: jest.fn(async () => undefined) };
  const mails = { send: jest.fn(async () => 'sent') };
  const users = { findManyByIds: jest.fn(async () => []) };
  // The money side replaced: a refund taken from the ledger, and its undo.
  const undo = jest.fn(async () => undefined);
  const refunds = {
    recordRefundForCancel: jest.fn(async (o: OrderRecord) =>
      o.paymentStatus === 'Paid' || o.amountPaid > 0 ? { out: ['out:1'], undo } : null,
    ),
    finishRefund: jest.fn(async () => undefined),
    undo,
  };
  // Ready stock: it may go out whenever the order's state allows, and nothing is left to hand over.
  const placement = {
    returnStock: jest.fn(async () => undefined),
    stock: { dispatchGuard: () => ({}), checkDispatch: () => undefined, handOver: async () => 0 },
  };
  const sms = { notifyOrder: jest.fn(async () => undefined) };
  const mailLog = { eraseFor: jest.fn(async () => 0) };
  const mailQueue = { forget: jest.fn(async () => 0) };
  // The steps' events, heard by the real listeners: the audit trail's and the customer's follow-ups.
  const emitter = new EventEmitter2({ wildcard: true, delimiter: '.' });
  const events = new DomainEvents(emitter);
  const trail = new AuditEventsListener(audit as unknown as AuditService);
  const followUps = new OrderFollowUps(
    mails as unknown as OrderMails,
    sms as unknown as SmsService,
  );
  emitter.on('**', (e: DomainEvent) => trail.record(e));
  emitter.on('order.*', (e: OrderEvent) => followUps.ofOrder(e));
  emitter.on('booking.*', (e: OrderEvent) => followUps.ofBooking(e));
  const service = new OrdersService(
    repo as unknown as OrdersRepository,
    {} as OrderLists,
    placement as unknown as OrderPlacementService,
    users as unknown as UsersService,
    audit as unknown as AuditService,
    { orders: {} } as unknown as AppConfig,
    refunds as unknown as OrderMoney,
    {} as ModuleRef,
    mailLog as unknown as MailLogRepository,
    mailQueue as unknown as MailQueue,
    events,
    { aboutOrders: async () => new Map() } as unknown as OrderLpoScans,
  );
  return {
    service,
    mailLog,
    mailQueue,
    repo,
    audit,
    mails,
    refunds,
    placement,
    sms,
    current: () => current,
    changeBehind: (c: Partial<OrderRecord>) => (current = { ...current, ...c }),
  };
}

describe('OrdersService.run (one runner for every declared order step)', () => {
  it('applies the step in one conditional update from its starting statuses and audits it', async () => {
    const { service, repo, audit } = setup(order({ orderStatus: 'Processing' }));
    const view = await service.moveInTransit(clerk, ID);
    expect(view.orderStatus).toBe('InTransit');
    expect(view.inTransitDate).toBeInstanceOf(Date);
    expect(repo.transition).toHaveBeenCalledWith(
      ID,
      // An order delivered in tranches goes out tranche by tranche, never whole.
      { orderStatus: { $in: ['Pending', 'Processing'] }, inTranches: { $ne: true } },
      expect.objectContaining({ $set: expect.objectContaining({ orderStatus: 'InTransit' }) }),
    );
    expect(audit.record).toHaveBeenCalledWith(
      clerk,
      'order.inTransit',
      'Grace Njeri marked order SPC-1001 in transit',
      { type: 'order', id: ID, label: 'SPC-1001' },
    );
  });

  it("refuses with the state machine's reason and code, writing nothing", async () => {
    const { service, repo, audit } = setup(order({ orderStatus: 'InTransit' }));
    const refused = service.fulfil(clerk, ID);
    await expect(refused).rejects.toBeInstanceOf(ConflictException);
    await expect(service.fulfil(clerk, ID)).rejects.toMatchObject({
      response: { message: 'Complete the payment before fulfilling this order', code: 'NOT_PAID' },
    });
    expect(repo.transition).not.toHaveBeenCalled();
    expect(audit.record).not.toHaveBeenCalled();
  });

  it('answers with the current state when another clerk acted first', async () => {
    const t = setup(order());
    // The order is read Pending, but is cancelled before the conditional update runs.
    t.repo.transition.mockImplementationOnce(async () => {
      t.changeBehind({ orderStatus: 'Cancelled' });
      return null;
    });
    await expect(t.service.confirmDelivery(clerk, ID)).rejects.toMatchObject({
      response: { code: 'ILLEGAL_TRANSITION' },
    });
    await expect(t.service.run(ORDER_STEPS.inTransit, clerk, ID, undefined)).rejects.toMatchObject({
      response: {
        message: 'This order is cancelled; only pending or processing orders can be sent out',
      },
    });
    expect(t.audit.record).not.toHaveBeenCalled();
  });

  it("lets a step's prepare refuse with a 4xx before anything changes", async () => {
    const { service, repo } = setup(order());
    const refusing: OrderStep = {
      rule: 'inTransit',
      event: 'order.inTransit',
      prepare: () => {
        throw new BadRequestException('Not like this');
      },
      audit: { action: 'order.ready', text: () => 'never' },
    };
    await expect(service.run(refusing, clerk, ID, undefined)).rejects.toThrow(
      new BadRequestException('Not like this'),
    );
    expect(repo.transition).not.toHaveBeenCalled();
  });

  it('runs a new action from its declaration alone, mail included, and keeps roles out', async () => {
    const readyForCollection: OrderStep = {
      rule: 'inTransit',
      event: 'order.inTransit',
      by: ['staff', 'admin'],
      prepare: () => ({ $set: { orderStatus: 'InTransit' } }),
      audit: {
        action: 'order.ready',
        text: ({ actor, order: o }) => `${actor.fullName} made ${o.purchaseNumber} ready`,
      },
      mail: () => 'paid',
    };
    const customer: Principal = { id: 'c1', role: 'customer', fullName: 'Wanjiru Kamau' };
    const t = setup(order());
    await expect(t.service.run(readyForCollection, customer, ID, undefined)).rejects.toBeInstanceOf(
      ForbiddenException,
    );
    const view = await t.service.run(readyForCollection, clerk, ID, undefined);
    expect(view.orderStatus).toBe('InTransit');
    expect(t.audit.record).toHaveBeenCalledWith(
      clerk,
      'order.ready',
      'Grace Njeri made SPC-1001 ready',
      expect.anything(),
    );
    expect(t.mails.send).toHaveBeenCalledWith(
      'paid',
      expect.objectContaining({ _id: ID, orderStatus: 'InTransit' }),
    );
  });

  it('cancels a paid order with its refund recorded first, then returns its stock', async () => {
    const t = setup(order({ orderStatus: 'Processing', paymentStatus: 'Paid' }));
    const refund = { method: 'Cash', amount: 1200 } as never;
    const view = await t.service.cancel(clerk, ID, refund);
    expect(view.orderStatus).toBe('Cancelled');
    expect(t.refunds.recordRefundForCancel).toHaveBeenCalledTimes(1);
    expect(t.refunds.finishRefund).toHaveBeenCalledWith(['out:1']);
    expect(t.placement.returnStock).toHaveBeenCalledWith(
      expect.objectContaining({ stockReturn: 'pending' }),
      clerk,
    );
    expect(t.audit.record).toHaveBeenCalledWith(
      clerk,
      'order.cancel',
      'Grace Njeri cancelled order SPC-1001 and refunded KES 1,200 by Cash; its stock was returned',
      expect.anything(),
    );
  });

  it('takes the refund back when the order changed before the cancel could apply', async () => {
    const t = setup(order({ orderStatus: 'Processing', paymentStatus: 'Paid' }));
    t.repo.transition.mockImplementationOnce(async () => {
      t.changeBehind({ orderStatus: 'InTransit' });
      return null;
    });
    await expect(
      t.service.cancel(clerk, ID, { method: 'Cash', amount: 1200 } as never),
    ).rejects.toMatchObject({
      response: {
        message: 'This order is in transit; only pending or processing orders can be cancelled',
      },
    });
    expect(t.refunds.undo).toHaveBeenCalledTimes(1);
    expect(t.refunds.finishRefund).not.toHaveBeenCalled();
    expect(t.placement.returnStock).not.toHaveBeenCalled();
    expect(t.audit.record).not.toHaveBeenCalled();
  });

  it("hides another customer's order from a customer before any state rule", async () => {
    const other: Principal = { id: 'c2', role: 'customer', fullName: 'Otieno' };
    const t = setup(order({ orderStatus: 'Completed', placedBy: 'c1' }));
    await expect(t.service.cancel(other, ID)).rejects.toMatchObject({
      response: { message: 'No order with this id' },
    });
  });
});

describe('cancellations all go through the runner', () => {
  const admin: Principal = { id: 'a1', role: 'admin', fullName: 'Shop Admin' };

  it('deletes an unpaid order as a cancellation: stock returned, the customer texted, audited', async () => {
    const { service, repo, audit, placement, sms, mailLog, mailQueue } = setup(
      order({ orderStatus: 'Processing' }),
    );
    const view = await service.remove(admin, ID);
    expect(view.orderStatus).toBe('Cancelled');
    // Its e-mails go with it (issue 39): no erasure could find them by an order that is gone.
    expect(mailLog.eraseFor).toHaveBeenCalledWith({ orderIds: [ID] });
    expect(mailQueue.forget).toHaveBeenCalledWith({ orderIds: [ID] });
    expect(placement.returnStock).toHaveBeenCalledWith(
      expect.objectContaining({ orderStatus: 'Cancelled', stockReturn: 'pending' }),
      admin,
    );
    expect(repo.delete).toHaveBeenCalledWith(ID);
    expect(sms.notifyOrder).toHaveBeenCalledWith(
      expect.objectContaining({ orderStatus: 'Cancelled' }),
      'cancelled',
      undefined,
    );
    expect(audit.record).toHaveBeenCalledWith(
      admin,
      'order.delete',
      'Shop Admin deleted order SPC-1001',
      { type: 'order', id: ID, label: 'SPC-1001' },
    );
  });

  it('deletes an order already cancelled without telling the customer a second time', async () => {
    const { service, repo, sms } = setup(
      order({ orderStatus: 'Cancelled', stockReturn: 'cleared' }),
    );
    await service.remove(admin, ID);
    expect(repo.delete).toHaveBeenCalledWith(ID);
    expect(sms.notifyOrder).not.toHaveBeenCalled();
  });

  it('lets only the shop itself expire an order, and names the shop (a system actor) in the trail', async () => {
    const { service, audit, sms, current } = setup(order());
    await expect(
      service.runOn(ORDER_STEPS.expire, clerk, current(), { hours: 72 }),
    ).rejects.toBeInstanceOf(ForbiddenException);
    expect(SHOP_ACTOR.role).toBe('system');
    await service.runOn(ORDER_STEPS.expire, SHOP_ACTOR, current(), { hours: 72 });
    expect(current().orderStatus).toBe('Cancelled');
    expect(sms.notifyOrder).toHaveBeenCalledWith(expect.anything(), 'cancelled', undefined);
    expect(audit.record).toHaveBeenCalledWith(
      SHOP_ACTOR,
      'order.expire',
      'SPC-1001 was cancelled automatically, unpaid after 72 hours; its stock was returned',
      { type: 'order', id: ID, label: 'SPC-1001' },
    );
  });
});
