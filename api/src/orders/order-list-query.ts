import type { FilterQuery } from 'mongoose';
import { ORDER_QUEUE_RULES } from '@spc/shared-contracts';
import { escapeRegExp } from '../common/pagination';
import type { OrderListFilter } from './order.types';
import type { Order } from './schemas/order.schema';

const byOrderDate = { orderDate: -1, _id: -1 } as const;

/** Digits of a phone number as typed, without the country code or the trunk 0 (07.. = +2547..). */
function nationalDigits(text: string): string | null {
  if (!/^[+\d\s().-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '').replace(/^(254|0)/, '');
  return digits.length >= 3 ? digits : null;
}

/** The database query for an orders list: every filter given, all of them at once. */
export function listQuery(filter: OrderListFilter): FilterQuery<Order> {
  const all: FilterQuery<Order>[] = [{ placement: 'placed' }];
  if (filter.placedBy) all.push({ placedBy: filter.placedBy });
  if (filter.orderStatus) all.push({ orderStatus: filter.orderStatus });
  if (filter.paymentStatus) all.push({ paymentStatus: filter.paymentStatus });
  if (filter.queue) {
    const rule = ORDER_QUEUE_RULES[filter.queue];
    all.push({
      orderStatus: { $in: [...rule.orderStatus] },
      ...(rule.paymentStatus ? { paymentStatus: rule.paymentStatus } : {}),
    });
  }
  if (filter.from || filter.to) {
    all.push({
      orderDate: {
        ...(filter.from ? { $gte: filter.from } : {}),
        ...(filter.to ? { $lt: filter.to } : {}),
      },
    });
  }
  if (filter.search) {
    const pattern = new RegExp(escapeRegExp(filter.search), 'i');
    const any: FilterQuery<Order>[] = [
      { purchaseNumber: pattern },
      { 'guestInfo.fullName': pattern },
      { 'guestInfo.phoneNumber': pattern },
      { 'guestInfo.email': pattern },
    ];
    // A phone matches however either side wrote it: spaces, dashes, +254 or a leading 0.
    const digits = nationalDigits(filter.search);
    if (digits) any.push({ 'guestInfo.phoneNumber': new RegExp(digits.split('').join('\\D*')) });
    all.push({ $or: any });
  }
  return all.length === 1 ? all[0]! : { $and: all };
}

/** Newest first unless told; ties broken by id so pages never repeat or skip an order. */
export function listSort(filter: OrderListFilter): Record<string, 1 | -1> {
  if (!filter.sortBy && !filter.sortOrder) return { ...byOrderDate };
  const dir = filter.sortOrder === 'asc' ? 1 : -1;
  return { [filter.sortBy ?? 'orderDate']: dir, _id: dir };
}
