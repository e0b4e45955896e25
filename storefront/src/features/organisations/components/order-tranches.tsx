import {
  formatDate,
  formatDateTime,
  SIGNED_NOTE_TEXTS,
  TRANCHE_STATE_LABELS,
  trancheLabel,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { problemText } from '../../../lib/api-client';
import {
  downloadDeliveryNote,
  useOrderTranches,
  type TrancheLineStanding,
  type TrancheView,
} from '../api/tranches';
import { downloadSignedNote } from '../api/lpo-scan';
import './order-tranches.css';

const n = (x: number) => x.toLocaleString('en-US');

/** Units of a line in words: "600 × Tray of 50 (30,000 seedlings)", or "120,000 × Seedling". */
const units = (quantity: number, l: { unitName: string; seedlings: number }) =>
  `${n(quantity)} × ${l.unitName}${l.seedlings > 1 ? ` (${n(quantity * l.seedlings)} seedlings)` : ''}`;

/** What is left of each line: in no delivery yet, planned, on its way (delivered lines drop out). */
function StillToDeliver({ lines }: { lines: TrancheLineStanding[] }) {
  const open = lines.filter((l) => l.delivered < l.quantity);
  return (
    <div className="tranche-left" aria-label="Still to deliver" role="region">
      <h3>Still to deliver</h3>
      {open.length === 0 ? (
        <p className="small">Everything on the order is delivered.</p>
      ) : (
        <ul className="quote-lines">
          {open.map((l) => (
            <li key={`${l.productId}:${l.unitId}:${l.batchId ?? ''}`}>
              <span className="org-wrap">
                <strong>{l.productName}</strong> · {l.unitName}
              </span>
              <span className="quote-qty">
                {units(l.quantity - l.delivered, l)} of {n(l.quantity)} to deliver
              </span>
              <span className="muted small tranche-split">
                {[
                  l.toPlan > 0 && `${n(l.toPlan)} not planned yet`,
                  l.planned > 0 && `${n(l.planned)} planned`,
                  l.onTheWay > 0 && `${n(l.onTheWay)} on the way`,
                  l.delivered > 0 && `${n(l.delivered)} delivered`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One line of a load: planned, then sent, then what arrived (and why short). */
function TrancheLine({ line: l, state }: { line: TrancheView['lines'][number]; state: string }) {
  let qty = units(l.quantity, l);
  if (l.delivered !== null) {
    qty = `${units(l.delivered, l)} delivered`;
    if (l.dispatched !== null && l.delivered < l.dispatched) qty += ` of ${n(l.dispatched)} sent`;
  } else if (l.dispatched !== null) qty = `${units(l.dispatched, l)} sent`;
  return (
    <li className={state === 'Cancelled' ? 'muted' : undefined}>
      <span className="org-wrap">
        <strong>{l.productName}</strong> · {l.unitName}
      </span>
      <span className="quote-qty">{qty}</span>
      {l.shortReason && (
        <span className="small org-wrap tranche-short">
          Short by {n((l.dispatched ?? 0) - (l.delivered ?? 0))}: {l.shortReason}
        </span>
      )}
    </li>
  );
}

/**
 * The signed delivery note: who signed it and when, and the photo or scan of the signed paper when
 * the shop attached one (fetched signed in).
 */
function SignedNote({
  tranche: t,
  orderId,
  purchaseNumber,
}: {
  tranche: TrancheView;
  orderId: string;
  purchaseNumber: string;
}) {
  const [fetching, setFetching] = useState(false);
  if (!t.signedBy && !t.signedNote) return null;
  const view = () => {
    setFetching(true);
    downloadSignedNote(orderId, purchaseNumber, t.number)
      .catch((e: Error) => toast.error(e.message))
      .finally(() => setFetching(false));
  };
  return (
    <div className="tranche-signed">
      {t.signedBy && (
        <p className="small org-wrap">
          Signed for by <strong>{t.signedBy}</strong> on {formatDateTime(t.signedAt)}
        </p>
      )}
      {t.signedNote && (
        <button type="button" className="btn btn-outline btn-sm" onClick={view} disabled={fetching}>
          {fetching ? 'Preparing…' : `${SIGNED_NOTE_TEXTS.download} ${trancheLabel(t.number)}`}
        </button>
      )}
    </div>
  );
}

function TrancheCard({
  tranche: t,
  orderId,
  purchaseNumber,
}: {
  tranche: TrancheView;
  orderId: string;
  purchaseNumber: string;
}) {
  const [fetching, setFetching] = useState(false);
  const label = trancheLabel(t.number);
  const titleId = `tranche-${t.number}`;
  const download = () => {
    setFetching(true);
    downloadDeliveryNote(orderId, purchaseNumber, t.number)
      .catch((e: Error) => toast.error(e.message))
      .finally(() => setFetching(false));
  };
  const place = [t.site.subCounty, t.site.county].filter(Boolean).join(', ');
  return (
    <li>
      <article className="tranche" aria-labelledby={titleId}>
        <div className="quote-head">
          <h3 id={titleId}>
            {label} · {formatDate(t.date)}
          </h3>
          <span className={`quote-status tranche-state-${t.state.toLowerCase()}`}>
            {TRANCHE_STATE_LABELS[t.state]}
          </span>
        </div>
        <p className="org-wrap tranche-site">
          <strong>{t.site.name}</strong>
          <br />
          <span className="small">{place}</span>
          <br />
          <span className="muted small">
            Contact: {t.site.contact.name}, {t.site.contact.phone}
          </span>
        </p>
        <ul className="quote-lines">
          {t.lines.map((l) => (
            <TrancheLine
              key={`${l.productId}:${l.unitId}:${l.batchId ?? ''}`}
              line={l}
              state={t.state}
            />
          ))}
        </ul>
        <p className="muted small">
          {n(t.seedlings)} seedlings
          {t.dispatchedAt && ` · left the nursery ${formatDateTime(t.dispatchedAt)}`}
          {t.cancelledAt && ` · cancelled ${formatDateTime(t.cancelledAt)}`}
        </p>
        <SignedNote tranche={t} orderId={orderId} purchaseNumber={purchaseNumber} />
        {t.state !== 'Cancelled' && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={download}
            disabled={fetching}
          >
            {fetching
              ? 'Preparing…'
              : `${t.state === 'Delivered' ? 'Signed delivery note' : 'Delivery note'} ${label} (PDF)`}
          </button>
        )}
      </article>
    </li>
  );
}

/**
 * The deliveries of an order from a quotation, for the organisation's people: each tranche (load)
 * to a planting site with its state, lines and signed note, its delivery note as a PDF, and what
 * of the order is still to deliver.
 */
export function OrderTranches({ orderId }: { orderId: string }) {
  const { data, isPending, isError, error, refetch, isFetching } = useOrderTranches(orderId);
  let body;
  if (isPending) body = <Loading label="Loading the deliveries…" />;
  else if (isError)
    body = (
      <div className="state state-error" role="alert">
        <p>{problemText(error)}</p>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={() => void refetch()}
          disabled={isFetching}
        >
          {isFetching ? 'Trying again…' : 'Try again'}
        </button>
      </div>
    );
  else
    body = (
      <>
        {data.tranches.length === 0 ? (
          <p className="muted">
            No deliveries planned in parts. When the shop delivers this order in loads to your
            planting sites, each shows here with its delivery note.
          </p>
        ) : (
          <ol className="tranche-list">
            {data.tranches.map((t) => (
              <TrancheCard
                key={t.number}
                tranche={t}
                orderId={orderId}
                purchaseNumber={data.purchaseNumber}
              />
            ))}
          </ol>
        )}
        {/* Only once it goes in loads: an order sent whole has no tranches to count from. */}
        {data.tranches.length > 0 && <StillToDeliver lines={data.lines} />}
      </>
    );
  return (
    <section className="org-card" aria-labelledby="deliveries" id="order-deliveries">
      <h2 id="deliveries">Deliveries</h2>
      {body}
    </section>
  );
}
