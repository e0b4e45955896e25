import { Badge } from '@mantine/core';
import type { BookingState } from '@spc/shared-contracts';

/** Colours of a booking's states: waiting on money in yellow, trouble in red, done in grey. */
const COLOR: Record<BookingState, string> = {
  'Deposit due': 'yellow',
  Booked: 'blue',
  'Balance due': 'orange',
  Paid: 'green',
  Expired: 'gray',
  Released: 'gray',
  Affected: 'red',
  Refunded: 'gray',
};

/** A booking's state (`order.booking.state`) as a badge, in the API's words. */
export function BookingStateBadge({ state }: { state: string }) {
  return (
    <Badge
      variant="light"
      color={COLOR[state as BookingState] ?? 'gray'}
      tt="none"
      miw="max-content"
    >
      {state}
    </Badge>
  );
}
