import { ORDER_ACTIONS, ORDER_STATUSES, PAYMENT_STATUSES } from './index';
import { checkOrderAction, onAccountExempt } from './order-state';

/** Orders on account (issue 43): the order table's exceptions, each named and checked here. */
describe('an order on account', () => {
  const pendingUnpaid = { orderStatus: 'Pending', paymentStatus: 'Pending' } as const;

  it('does not expire unpaid: the clock may not cancel it, and says why', () => {
    expect(checkOrderAction({ ...pendingUnpaid, onAccount: true }, 'cancel', 'system')).toEqual({
      allowed: false,
      reason:
        'This order is on account; it does not expire unpaid: its money is due by its invoice',
      code: 'ILLEGAL_TRANSITION',
    });
    expect(onAccountExempt('cancel', 'system')).toBe(true);
  });

  it('keeps today’s rules for an ordinary order: the clock cancels it pending and unpaid', () => {
    expect(checkOrderAction(pendingUnpaid, 'cancel', 'system')).toEqual({ allowed: true });
    expect(checkOrderAction({ ...pendingUnpaid, onAccount: false }, 'cancel', 'system')).toEqual({
      allowed: true,
    });
  });

  it('is cancelled by the shop, and sent out before it is paid', () => {
    const onAccount = { ...pendingUnpaid, onAccount: true };
    expect(checkOrderAction(onAccount, 'cancel', 'staff')).toEqual({ allowed: true });
    expect(checkOrderAction(onAccount, 'inTransit', 'staff')).toEqual({ allowed: true });
    expect(
      checkOrderAction(
        { orderStatus: 'Processing', paymentStatus: 'Pending', onAccount: true },
        'inTransit',
        'staff',
      ),
    ).toEqual({ allowed: true });
    expect(onAccountExempt('cancel', 'staff')).toBe(false);
  });

  it('differs from an ordinary order in nothing else', () => {
    for (const action of ORDER_ACTIONS)
      for (const orderStatus of ORDER_STATUSES)
        for (const paymentStatus of PAYMENT_STATUSES)
          for (const role of ['staff', 'admin', 'customer'] as const)
            expect(
              checkOrderAction({ orderStatus, paymentStatus, onAccount: true }, action, role),
            ).toEqual(checkOrderAction({ orderStatus, paymentStatus }, action, role));
  });
});
