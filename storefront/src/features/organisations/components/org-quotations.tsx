import { formatDate, formatMoney, QUOTATION_STATUS_LABELS } from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Pagination } from '../../../components/pagination';
import { ErrorState, Loading } from '../../../components/states';
import { paths } from '../../../config/paths';
import { problemText } from '../../../lib/api-client';
import { useMyQuotations } from '../api/quotations';

/** The organisation's quotations, latest change first, each opening its page. */
export function OrgQuotations() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error } = useMyQuotations(page);
  let body;
  if (isPending) body = <Loading />;
  else if (isError) body = <ErrorState message={problemText(error)} />;
  else if (!data.quotations.length)
    body = (
      <p className="muted">
        No quotations yet. Put what you need in the <Link to={paths.cart}>cart</Link> and ask for a
        quote there.
      </p>
    );
  else
    body = (
      <>
        <ul className="org-list">
          {data.quotations.map((q) => (
            <li key={q._id} className="quote-row">
              <Link to={`${paths.myOrganisation}?quotation=${q._id}`}>
                <strong>{q.number}</strong>
              </Link>
              <span className={`quote-status quote-status-${q.status}`}>
                {QUOTATION_STATUS_LABELS[q.status]}
              </span>
              <span className="quote-money">{q.total === null ? '' : formatMoney(q.total)}</span>
              <span className="muted small">
                {q.validUntil ? `Valid until ${formatDate(q.validUntil)} · ` : ''}
                {q.versions} version{q.versions === 1 ? '' : 's'} · updated{' '}
                {formatDate(q.updatedAt)}
              </span>
            </li>
          ))}
        </ul>
        <Pagination page={page} totalPages={data.totalPages} onChange={setPage} />
      </>
    );
  return (
    <section className="org-card" aria-labelledby="org-quotations">
      <h2 id="org-quotations">Quotations</h2>
      {body}
    </section>
  );
}
