import {
  bookingTakesMoney,
  formatDate,
  PURCHASE_NUMBER,
  STOREFRONT_MESSAGES,
  type OrderStatus,
} from '@spc/shared-contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BookingFacts } from '../../../components/booking-facts';
import { Loading } from '../../../components/states';
import { bookingPayLabel, factsOfTracking } from '../../../lib/bookings';
import { trackKeys, useTrackOrder } from '../api/track-order';
import { Timeline } from '../components/timeline';
import '../tracking.css';

// Its own chunk, loaded only for a booking with something to pay.
const PayByMpesa = lazy(() =>
  import('../../../components/pay-by-mpesa').then((m) => ({ default: m.PayByMpesa })),
);

/**
 * /track-orders: the number is sent as typed; the query string keeps it for a shared link
 * (`number`, or `purchaseNumber` as the order texts write it).
 */
export function TrackOrdersRoute() {
  const [params, setParams] = useSearchParams();
  const number = params.get('number') ?? params.get('purchaseNumber') ?? '';
  const queryClient = useQueryClient();
  const [text, setText] = useState(number);
  const { data, isFetching, isError } = useTrackOrder(number);

  return (
    <div className="page narrow">
      <h1>Track your order</h1>
      <form
        className="track-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (text) setParams({ number: text });
        }}
      >
        <label htmlFor="purchaseNumber">Confirmation number</label>
        <div className="inline">
          <input
            id="purchaseNumber"
            value={text}
            placeholder={`${PURCHASE_NUMBER.prefix}XXX`}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn">
            Track
          </button>
        </div>
        <p className="muted">The number starts with {PURCHASE_NUMBER.prefix}XXX.</p>
      </form>
      {isFetching && <Loading />}
      {isError && !isFetching && (
        <p className="state state-error" role="alert">
          {STOREFRONT_MESSAGES.trackingError}
        </p>
      )}
      {data && !isFetching && (
        <section className="tracker" aria-label="Order status">
          <p>
            Order <strong>{data.purchaseNumber}</strong>
          </p>
          <p>
            Estimated Delivery Date:{' '}
            <strong>
              {data.estimatedDeliveryDate ? formatDate(data.estimatedDeliveryDate) : 'Unknown'}
            </strong>
          </p>
          {data.booking && <BookingFacts booking={factsOfTracking(data.booking)} />}
          {data.booking && bookingTakesMoney(data.booking.state) && (
            <Suspense fallback={null}>
              <PayByMpesa
                purchaseNumber={data.purchaseNumber}
                phoneNumber=""
                open={data.orderStatus.currentStatus !== 'Cancelled'}
                label={bookingPayLabel(data.booking)}
                onPaid={() =>
                  void queryClient.invalidateQueries({ queryKey: trackKeys.order(number) })
                }
              />
            </Suspense>
          )}
          <Timeline
            status={data.orderStatus.currentStatus as OrderStatus}
            dates={{
              received: data.orderReceivedDate,
              inTransit: data.inTransitDate,
              delivered: data.deliveredDate,
            }}
          />
        </section>
      )}
    </div>
  );
}
