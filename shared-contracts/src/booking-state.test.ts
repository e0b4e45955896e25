import {
  BOOKING_RULES,
  LIVE_BOOKING_STATES,
  bookingDeposit,
  bookingMoneyRefusal,
  bookingTakesMoney,
} from './booking-state';

describe('the booking state machine', () => {
  it('takes money while the deposit or the balance is due, and no other time', () => {
    expect(['Deposit due', 'Booked', 'Balance due'].map(bookingTakesMoney)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['Paid', 'Expired', 'Released', 'Affected', 'Refunded'].some(bookingTakesMoney)).toBe(
      false,
    );
  });

  it('keeps the seedlings of a booking on its batch until it ends or is affected', () => {
    expect(LIVE_BOOKING_STATES).toEqual(['Deposit due', 'Booked', 'Balance due', 'Paid']);
  });

  it('says why a booking takes no money', () => {
    expect(bookingMoneyRefusal('SPC-1', 'Booked')).toBeNull();
    expect(bookingMoneyRefusal('SPC-1', 'Released')).toBe('booking SPC-1 is released');
    expect(bookingMoneyRefusal('SPC-1', 'Affected')).toBe(
      'booking SPC-1 waits to be moved to another batch or refunded',
    );
  });

  it('lets the owner or the shop move or refund an affected booking', () => {
    expect(BOOKING_RULES.Affected.acts.move).toContain('customer');
    expect(BOOKING_RULES.Paid.acts.handOver).not.toContain('customer');
  });

  it('rounds the deposit to whole KES, at least 1 and at most the total', () => {
    expect(bookingDeposit(15_000, 30)).toBe(4_500);
    expect(bookingDeposit(1_001, 30)).toBe(300);
    expect(bookingDeposit(1, 1)).toBe(1);
    expect(bookingDeposit(10, 100)).toBe(10);
  });
});
