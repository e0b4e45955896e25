import { formatDate, TRANCHE_STATE_LABELS } from '@spc/shared-contracts';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { problemText } from '../../../lib/api-client';
import { useMyTranches, useOrderTranches, type TrancheListItem } from '../api/tranches';
import { invoicePaths } from '../invoice-paths';
import { OrderTranches } from './order-tranches';

// The order's invoices come with the invoices' own chunk.
const OrderInvoices = lazy(() =>
  import('./org-invoices').then((m) => ({ default: m.OrderInvoices })),
);

export { OrderTranches };

/** Where one order's deliveries are shown in the organisation's area. */
export const orderDeliveriesPath = (orderId: string) =>
  `${paths.myOrganisation}?order=${encodeURIComponent(orderId)}`;

function Rows({ title, tranches }: { title: string; tranches: TrancheListItem[] }) {
  if (!tranches.length) return null;
  return (
    <>
      <h3 className="org-deliveries-title">{title}</h3>
      <ul className="org-list">
        {tranches.map((t) => (
          <li key={`${t.orderId}:${t.number}`} className="quote-row">
            <Link to={orderDeliveriesPath(t.orderId)}>
              <strong>
                {t.purchaseNumber} {t.label}
              </strong>
            </Link>
            <span className={`quote-status tranche-state-${t.state.toLowerCase()}`}>
              {TRANCHE_STATE_LABELS[t.state]}
            </span>
            <span className="muted small org-wrap">
              {formatDate(t.date)} · {t.site.name}, {t.site.county} ·{' '}
              {t.seedlings.toLocaleString('en-US')} seedlings
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The organisation's loads still under way: on their way (awaiting the signed note), then those
 * planned, by day (the first five of each). Shown only when there is one: an organisation that
 * takes no deliveries in parts sees nothing new.
 */
export function OrgDeliveries() {
  const onTheWay = useMyTranches({ queue: 'awaitingSignature' });
  const planned = useMyTranches({ state: 'Planned' });
  const failed = onTheWay.error ?? planned.error;
  if (failed)
    return (
      <section className="org-card" aria-labelledby="org-deliveries">
        <h2 id="org-deliveries">Deliveries</h2>
        <div className="state state-error" role="alert">
          <p>{problemText(failed)}</p>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={onTheWay.isFetching || planned.isFetching}
            onClick={() => {
              if (onTheWay.isError) void onTheWay.refetch();
              if (planned.isError) void planned.refetch();
            }}
          >
            Try again
          </button>
        </div>
      </section>
    );
  if (!onTheWay.data || !planned.data) return null;
  const more = onTheWay.data.total + planned.data.total;
  if (!more) return null;
  return (
    <section className="org-card" aria-labelledby="org-deliveries">
      <h2 id="org-deliveries">Deliveries</h2>
      <Rows title="On their way" tranches={onTheWay.data.tranches} />
      <Rows title="Planned" tranches={planned.data.tranches} />
      {more > onTheWay.data.tranches.length + planned.data.tranches.length && (
        <p className="muted small">Each order&apos;s page lists all its deliveries.</p>
      )}
    </section>
  );
}

/** /user/organisation?order=<id>: one order's deliveries, for every person of the organisation. */
export function OrderDeliveriesPage({ orderId }: { orderId: string }) {
  const { data } = useOrderTranches(orderId);
  return (
    <div className="page org-page">
      <p className="small">
        <Link to={paths.myOrganisation}>← Your organisation</Link>
      </p>
      <h1>{data ? `Order ${data.purchaseNumber}` : 'Order'}</h1>
      <OrderTranches orderId={orderId} />
      <Suspense fallback={null}>
        <OrderInvoices orderId={orderId} />
      </Suspense>
      <p className="small">
        <Link to={invoicePaths.list()}>All your organisation&apos;s invoices</Link>
      </p>
    </div>
  );
}
