import { formatDate, QUOTATION_STATUS_LABELS, type QuotationView } from '@spc/shared-contracts';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { ErrorState, Loading } from '../../../components/states';
import { paths } from '../../../config/paths';
import { problemText } from '../../../lib/api-client';
import { useMyOrganisation } from '../api/organisations';
import { useAttachLpoScan } from '../api/lpo-scan';
import { useQuotation } from '../api/quotations';
import { LpoScanCard } from './lpo-scan';
import { QuotationAnswer } from './quotation-answer';
import { QuotationThread } from './quotation-thread';
import { QuotationVersion } from './quotation-version';

// Its own chunk, loaded with an accepted quotation: the organisation's screen stays within its budget.
const OrderTranches = lazy(() =>
  import('./org-deliveries').then((m) => ({ default: m.OrderTranches })),
);

function Quotation({ q, role }: { q: QuotationView; role: 'approver' | 'buyer' | null }) {
  const a = q.acceptance;
  // The page's, not the acceptance form's: the form is gone once the quotation reads accepted,
  // while its scan may still be on its way (or have failed, the order standing without it).
  const attach = useAttachLpoScan();
  return (
    <>
      <div className="quote-head">
        <h1>{q.number}</h1>
        <span className={`quote-status quote-status-${q.status}`}>
          {QUOTATION_STATUS_LABELS[q.status]}
        </span>
      </div>
      <p className="muted small org-wrap">
        {q.organisationName} · asked by {q.requestedBy} on {formatDate(q.createdAt)}
      </p>
      {a && (
        <p className="org-status" role="status">
          Accepted (version {a.version}, LPO {a.lpoNumber}) by {a.acceptedBy} on{' '}
          {formatDate(a.acceptedAt)}: order{' '}
          <Link to={paths.myOrder(a.orderId)}>{a.purchaseNumber}</Link>.
        </p>
      )}
      {a && <LpoScanCard acceptance={a} canAttach={role === 'approver'} attach={attach} />}
      {a && (
        <Suspense fallback={<Loading label="Loading the deliveries…" />}>
          <OrderTranches orderId={a.orderId} />
        </Suspense>
      )}
      {q.versions.length === 0 ? (
        <section className="org-card">
          <p>The shop is pricing your request. You will get an e-mail when it sends a quotation.</p>
        </section>
      ) : (
        [...q.versions]
          .reverse()
          .map((v, i) => (
            <QuotationVersion
              key={v.version}
              quotationId={q._id}
              number={q.number}
              version={v}
              latest={i === 0}
            />
          ))
      )}
      {role && (
        <QuotationAnswer
          q={q}
          role={role}
          onAccepted={(orderId, file) => attach.mutate({ orderId, file, afterAccept: true })}
        />
      )}
      <QuotationThread id={q._id} messages={q.messages} />
    </>
  );
}

/**
 * A quotation of the customer's organisation, every version sent: /user/organisation?quotation=<id>
 * (the organisation area's screen, so that it adds no route to the shop's first load).
 */
export function QuotationPage({ id }: { id: string }) {
  const quotation = useQuotation(id);
  const mine = useMyOrganisation();
  let body;
  if (quotation.isPending || mine.isPending) body = <Loading />;
  else if (quotation.isError) body = <ErrorState message={problemText(quotation.error)} />;
  else body = <Quotation q={quotation.data} role={mine.data?.role ?? null} />;
  return (
    <div className="page org-page">
      <p className="small">
        <Link to={paths.myOrganisation}>← Your organisation</Link>
      </p>
      {body}
    </div>
  );
}
