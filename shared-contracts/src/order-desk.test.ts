import { ORDER_STATUSES, PAYMENT_STATUSES } from './constants';
import { checkOrderAction } from './order-state';
import { bulkConfirmQuestion, inQueue, ORDER_QUEUES, statusLabel } from './order-desk';

describe('the dispatch desk', () => {
  it('reads every status as words', () => {
    expect(statusLabel('InTransit')).toBe('In transit');
    expect(statusLabel('Pending')).toBe('Pending');
    expect(statusLabel('Fulfilled')).toBe('Fulfilled');
    expect(statusLabel('SomethingNew')).toBe('SomethingNew');
    expect(statusLabel(null)).toBe('');
  });

  it('puts each order state in the buckets where something can be done about it', () => {
    const buckets = (orderStatus: (typeof ORDER_STATUSES)[number], paid: boolean) =>
      ORDER_QUEUES.filter((q) =>
        inQueue({ orderStatus, paymentStatus: paid ? 'Paid' : 'Pending' }, q),
      );
    expect(buckets('Pending', false)).toEqual(['toConfirmPayment']);
    expect(buckets('Processing', true)).toEqual(['toDispatch']);
    expect(buckets('InTransit', true)).toEqual(['inTransit']);
    expect(buckets('InTransit', false)).toEqual(['toConfirmPayment', 'inTransit']);
    expect(buckets('Delivered', true)).toEqual(['toComplete']);
    expect(buckets('Completed', true)).toEqual([]);
    expect(buckets('Cancelled', false)).toEqual([]);
    expect(buckets('Cancelled', true)).toEqual([]);
  });

  it('only asks for what the state machine allows: every order to dispatch can be sent out, every one to confirm can be paid', () => {
    for (const orderStatus of ORDER_STATUSES)
      for (const paymentStatus of PAYMENT_STATUSES) {
        const order = { orderStatus, paymentStatus };
        if (inQueue(order, 'toDispatch'))
          expect(checkOrderAction(order, 'inTransit').allowed).toBe(true);
        if (inQueue(order, 'toConfirmPayment'))
          expect(checkOrderAction(order, 'completePayment').allowed).toBe(true);
        if (inQueue(order, 'inTransit'))
          expect(checkOrderAction(order, 'confirmDelivery').allowed).toBe(true);
      }
  });

  it('names the count in the confirmation of a bulk action', () => {
    expect(bulkConfirmQuestion('inTransit', 3)).toBe(
      'Are you sure you want to move 3 orders to in transit?',
    );
    expect(bulkConfirmQuestion('cancel', 1)).toBe('Are you sure you want to cancel 1 order?');
    expect(bulkConfirmQuestion('confirmDelivery', 2)).toBe(
      'Are you sure you want to confirm delivery of 2 orders?',
    );
  });
});
