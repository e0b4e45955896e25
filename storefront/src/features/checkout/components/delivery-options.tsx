import { formatDate, formatMoney, type DeliveryMethod } from '@spc/shared-contracts';
import { problemText } from '../../../lib/api-client';
import type { useDeliveryOptions } from '../api/get-delivery-options';
import '../checkout.css';

type OptionsQuery = ReturnType<typeof useDeliveryOptions>;

/**
 * The delivery choices for the chosen place, shown before PLACE ORDER: delivery with the zone's fee
 * and expected date, and free collection at the nursery with its address and opening hours.
 */
export function DeliveryOptions({
  county,
  query,
  method,
  onChange,
}: {
  county: string;
  query: OptionsQuery;
  method: DeliveryMethod;
  onChange: (method: DeliveryMethod) => void;
}) {
  return (
    <fieldset className="payment delivery-options" aria-busy={query.isFetching}>
      <legend>Delivery</legend>
      {!county ? (
        <p className="muted" data-testid="delivery-options-empty">
          Choose your county and sub-county to see the delivery options.
        </p>
      ) : query.isError ? (
        <div role="alert" className="notice">
          <p>Could not load the delivery options. {problemText(query.error)}</p>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => void query.refetch()}
          >
            Try again
          </button>
        </div>
      ) : !query.data ? (
        <p className="muted" role="status">
          Loading delivery options...
        </p>
      ) : (
        query.data.options.map((o) => (
          <label key={o.method} className="check delivery-option">
            <input
              type="radio"
              name="deliveryMethod"
              value={o.method}
              checked={method === o.method}
              onChange={() => onChange(o.method)}
            />
            <span>
              <strong>
                {o.method === 'collection' ? o.zoneName : `Delivery to ${o.zoneName}`}
              </strong>{' '}
              <span data-testid={`delivery-fee-${o.method}`}>
                {o.fee === 0 ? 'Free' : formatMoney(o.fee)}
              </span>
              <br />
              <span className="muted small" data-testid={`delivery-date-${o.method}`}>
                {o.method === 'collection'
                  ? `Ready to collect from ${formatDate(o.estimatedDeliveryDate)}`
                  : `Expected by ${formatDate(o.estimatedDeliveryDate)}`}
              </span>
              {o.method === 'collection' && (
                <>
                  <br />
                  <span className="muted small">
                    {o.address}. Open {o.openingHours}.
                  </span>
                </>
              )}
            </span>
          </label>
        ))
      )}
    </fieldset>
  );
}
