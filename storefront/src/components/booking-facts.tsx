import { bookingTakesMoney, formatMoney } from '@spc/shared-contracts';
import { type BookingFactsData } from '../lib/bookings';
import { readyDay } from '../lib/ready-day';
import './bookings.css';

/** What the shopper reads of a booking's state. */
const BOOKING_STATE_TEXTS: Record<string, string> = {
  'Deposit due': 'Deposit due',
  Booked: 'Booked: deposit paid',
  'Balance due': 'Ready: balance due',
  Paid: 'Paid in full',
  Expired: 'Expired: the deposit was not paid',
  Released: 'Released: the balance was not paid in time',
  Affected: 'The batch failed or fell short: the shop will contact you',
  Refunded: 'Refunded',
};

const bookingStateText = (state: string) => BOOKING_STATE_TEXTS[state] ?? state;

/**
 * A booking's ready day, state, deposit and balance, as My Orders, the order page and tracking show
 * them: "Ready from 12 March", "Deposit paid: KES 4,500", "Balance due: KES 10,500".
 */
export function BookingFacts({ booking: b }: { booking: BookingFactsData }) {
  const { depositPaid, balancePaid } = b;
  const open = bookingTakesMoney(b.state);
  return (
    <div className="booking-facts" data-testid="booking-facts">
      <p>
        <strong>Ready from {readyDay(b.readyOn)}</strong>
        <span className="booking-state">{bookingStateText(b.state)}</span>
      </p>
      <ul className="small">
        <li>
          {depositPaid ? 'Deposit paid' : 'Deposit due'}: {formatMoney(b.deposit)} (
          {b.depositPercent} %)
        </li>
        {balancePaid ? (
          <li>Balance paid: {formatMoney(b.balance)}</li>
        ) : (
          open && (
            <li>
              Balance due: {formatMoney(b.balance)}
              {b.balanceDueBy
                ? ` by ${readyDay(b.balanceDueBy)}`
                : b.state === 'Balance due'
                  ? ''
                  : ' when ready'}
            </li>
          )
        )}
        {b.releaseDecision && (
          <li>
            {b.releaseDecision === 'kept' ? 'The deposit was kept' : 'The deposit was refunded'}
          </li>
        )}
      </ul>
    </div>
  );
}
