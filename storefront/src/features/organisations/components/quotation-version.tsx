import {
  formatDate,
  formatDateTime,
  formatMoney,
  type QuotationLineView,
  type QuotationVersionView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { toast } from '../../../components/toast';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';

const n = (x: number) => x.toLocaleString('en-US');

const source = (l: QuotationLineView) =>
  l.source.kind === 'stock' ? 'ready stock' : `growing, ready ${formatDate(l.readyDate)}`;

/** One version sent: its lines, delivery, totals, validity, the shop's note and its PDF. */
export function QuotationVersion({
  quotationId,
  number,
  version: v,
  latest,
}: {
  quotationId: string;
  number: string;
  version: QuotationVersionView;
  latest: boolean;
}) {
  const [fetching, setFetching] = useState(false);
  const pdf = () => {
    setFetching(true);
    fetchPdf(documentUrl(`/api/quotations/${quotationId}/versions/${v.version}/pdf`), true)
      .then((blob) => saveBlob(blob, `${number}-v${v.version}.pdf`))
      .catch((e: Error) => toast.error(e.message))
      .finally(() => setFetching(false));
  };
  return (
    <section className="org-card quote-version" aria-label={`Version ${v.version}`}>
      <div className="quote-head">
        <h2>
          Version {v.version}
          {latest ? ' (latest)' : ''}
        </h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={pdf} disabled={fetching}>
          {fetching ? 'Preparing…' : `PDF of version ${v.version}`}
        </button>
      </div>
      <p className="muted small">
        Sent {formatDateTime(v.sentAt)} · valid until <strong>{formatDate(v.validUntil)}</strong>
      </p>
      <ul className="quote-lines">
        {v.lines.map((l, i) => (
          <li key={i}>
            <span className="org-wrap">
              <strong>{l.productName}</strong> · {l.unitName}
            </span>
            <span className="quote-qty">
              {n(l.quantity)} × {formatMoney(l.unitPrice)} ({n(l.quantity * l.seedlings)} seedlings,{' '}
              {source(l)})
            </span>
            <strong className="quote-money">{formatMoney(l.lineTotal)}</strong>
          </li>
        ))}
      </ul>
      <dl className="quote-totals">
        <dt>Subtotal</dt>
        <dd>{formatMoney(v.subtotal)}</dd>
        <dt>Delivery</dt>
        <dd>{formatMoney(v.deliveryFee)}</dd>
        <dt>Total</dt>
        <dd>
          <strong>{formatMoney(v.total)}</strong>
        </dd>
      </dl>
      {v.delivery && (
        <p className="small org-wrap">
          Delivery to {v.delivery.siteName}, {v.delivery.streetAddress},{' '}
          {v.delivery.subCounty ? `${v.delivery.subCounty}, ` : ''}
          {v.delivery.county} on {formatDate(v.delivery.date)}
        </p>
      )}
      {v.note && <p className="quote-note org-wrap">{v.note}</p>}
    </section>
  );
}
