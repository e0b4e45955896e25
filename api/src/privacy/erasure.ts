import { ConflictException, Injectable } from '@nestjs/common';
import { canonicalEmail, canonicalPhone } from '../common/identifiers';
import {
  ANONYMOUS_NAME,
  type AccountErasure,
  type DataSubject,
  type ErasureReason,
} from '../common/personal-data';
import { ORDER_STEPS } from '../orders/order-actions';
import { OrdersPersonalData, type PersonOrder } from '../orders/orders-personal-data';
import { OrdersService } from '../orders/orders.service';
import { SHOP_ACTOR } from '../orders/shop-actor';
import { OrganisationsService } from '../organisations/organisations.service';
import type { UserView } from '../users/user.types';
import { PersonalDataOwners } from './personal-data-owners';

export const ERASURE_MESSAGES = {
  openOrders: (numbers: string[]) =>
    `Your account cannot be deleted while these orders are open: ${numbers.join(', ')}. Cancel them, or wait until they are completed.`,
  openOrdersOfCustomer: (numbers: string[]) =>
    `This customer cannot be deleted while these orders are open: ${numbers.join(', ')}. Cancel them, or wait until they are completed.`,
} as const;

function unique(values: string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}

/**
 * Finds a person (an account, a guest by their canonical phone, the orders past retention) and
 * has every owner of personal data forget them: a customer deleting their account, an admin
 * deleting a customer, a guest's request, the retention sweep all go through here alike.
 */
@Injectable()
export class Erasure implements AccountErasure<UserView> {
  constructor(
    private readonly owners: PersonalDataOwners,
    private readonly orders: OrdersPersonalData,
    private readonly ordersService: OrdersService,
    private readonly organisations: OrganisationsService,
  ) {}

  /** An account and its orders as one person (their contacts as typed on each order too). */
  async subjectOfAccount(user: UserView): Promise<{ subject: DataSubject; orders: PersonOrder[] }> {
    const [orders, organisationId] = await Promise.all([
      this.orders.ofAccount(user._id),
      this.organisations.organisationIdOf(user._id),
    ]);
    const typed = OrdersPersonalData.contactsOf(orders);
    const subject: DataSubject = {
      accountId: user._id,
      orderIds: orders.map((o) => o._id),
      purchaseNumbers: orders.map((o) => o.purchaseNumber),
      phones: unique([
        ...(user.phoneNumber ? [canonicalPhone(user.phoneNumber)] : []),
        ...typed.phones,
      ]),
      emails: unique([canonicalEmail(user.email), ...typed.emails]),
      names: unique([user.fullName, ...typed.names]).filter((n) => n !== ANONYMOUS_NAME),
      // The shop's entries about their organisation may quote them (a reason to decline it).
      otherIds: organisationId ? [organisationId] : [],
      // An account's e-mail is not verified at sign-up: it proves nothing (anyone may register
      // with a guest's address). Its records are found by the account id.
      proven: { emails: [], phones: [] },
    };
    return { subject, orders };
  }

  /**
   * A guest: every order without an account given with this phone (E.164, however it was typed),
   * the named order among them; `otherIds` their data requests.
   */
  async subjectOfGuest(
    phone: string,
    otherIds: string[] = [],
  ): Promise<{ subject: DataSubject; orders: PersonOrder[] }> {
    const orders = await this.orders.ofGuestPhone(phone);
    const subject = this.subjectOfOrders(orders, [phone], otherIds);
    // The phone the guest proved with the SMS code.
    return { subject: { ...subject, proven: { emails: [], phones: [phone] } }, orders };
  }

  subjectOfOrders(
    orders: PersonOrder[],
    phones: string[] = [],
    otherIds: string[] = [],
  ): DataSubject {
    const typed = OrdersPersonalData.contactsOf(orders);
    return {
      accountId: null,
      orderIds: orders.map((o) => o._id),
      purchaseNumbers: orders.map((o) => o.purchaseNumber),
      phones: unique([...phones, ...typed.phones]),
      emails: unique(typed.emails),
      names: unique(typed.names),
      otherIds,
      proven: { emails: [], phones: [] },
    };
  }

  /** Refuses (409 `ORDERS_OPEN`) while one of the orders is not settled. */
  refuseOpen(orders: PersonOrder[], message: (numbers: string[]) => string): void {
    const open = OrdersPersonalData.open(orders);
    if (open.length) throw new ConflictException({ message: message(open), code: 'ORDERS_OPEN' });
  }

  /** An account's erasure: refused while an order is open, then every owner forgets them. */
  async eraseAccount(user: UserView, reason: 'account-deleted' | 'admin-deleted'): Promise<number> {
    const { subject, orders } = await this.subjectOfAccount(user);
    this.refuseOpen(
      orders,
      reason === 'account-deleted'
        ? ERASURE_MESSAGES.openOrders
        : ERASURE_MESSAGES.openOrdersOfCustomer,
    );
    await this.owners.erase(subject, reason);
    // Once more, now that the account is closed: what was written for the person while the first
    // pass ran goes too (an e-mail queued, by a reset asked for a moment before the account closed,
    // after its owner had erased the queue), as does an order placed meanwhile (the session still
    // open a moment), whose contacts are the person's. Nothing is written for a closed account.
    const late = (await this.orders.ofAccount(user._id)).filter(
      (o) => !subject.orderIds.includes(o._id),
    );
    const more = this.subjectOfOrders(late);
    await this.owners.erase(
      {
        ...subject,
        orderIds: [...subject.orderIds, ...more.orderIds],
        purchaseNumbers: [...subject.purchaseNumbers, ...more.purchaseNumbers],
        phones: unique([...subject.phones, ...more.phones]),
        emails: unique([...subject.emails, ...more.emails]),
        names: unique([...subject.names, ...more.names]),
      },
      reason,
    );
    // Unpaid and open: cancelled by the shop, their stock back (a paid one is the shop's to
    // settle, as any order without a contact).
    // (One still being placed is undone by its placement: its account is closed.)
    for (const o of late.filter((x) => x.placement === 'placed'))
      await this.ordersService
        .run(ORDER_STEPS.accountClosed, SHOP_ACTOR, o._id, undefined)
        .catch(() => undefined);
    return orders.length + late.length;
  }

  erase(subject: DataSubject, reason: ErasureReason): Promise<void> {
    return this.owners.erase(subject, reason);
  }
}
