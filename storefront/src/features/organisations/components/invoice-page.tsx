import {
  CREDIT_NOTE_REASON_LABELS,
  formatDate,
  formatDateTime,
  formatMoney,
  INVOICE_PAYMENT_KIND_LABELS,
  type components,
  type InvoiceView,
} from '@spc/shared-contracts';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { downloadInvoicePdf, useInvoice, usePaybill } from '../api/invoices';
import { invoicePaths } from '../invoice-paths';
import { Failed, InvoiceState, trancheText } from './invoice-bits';

type EtimsDocument = components['schemas']['EtimsDocumentDto'];

const n = (x: number) => x.toLocaleString('en-US');

// KRA eTIMS's block, as on the order page: its own chunk, loaded only when the invoice has one.
const OrderEtims = lazy(() =>
  import('../../../components/etims-documents').then((m) => ({ default: m.EtimsDocuments })),
);

/**
 * How to pay what is owed: the shop's paybill (as the order pages learn it) with the invoice number
 * as the account; the account alone when the paybill is not known.
 */
function PayingWords({ invoice: i }: { invoice: InvoiceView }) {
  const { data: paybill } = usePaybill(i.purchaseNumber, i.balance > 0);
  if (i.balance <= 0) return null;
  return (
    <p className="invoice-pay" data-testid="invoice-paying-words">
      {paybill ? (
        <>
          Pay by M-Pesa: paybill <strong>{paybill}</strong>, account <strong>{i.number}</strong>
        </>
      ) : (
        <>
          Pay by M-Pesa with the account <strong>{i.number}</strong>
        </>
      )}
      , amount <strong>{formatMoney(i.balance)}</strong>.
    </p>
  );
}

function Totals({ invoice: i }: { invoice: InvoiceView }) {
  const rows: [string, number][] = [
    ['Delivery fee', i.fee],
    ['Total', i.total],
    ['Paid', i.paid],
    ['Tax withheld', i.withheld],
    ['Credited', i.credited],
  ];
  return (
    <dl className="quote-totals" aria-label="Totals">
      {rows.map(([label, amount]) => (
        <div key={label} className="invoice-total-row">
          <dt>{label}</dt>
          <dd>{formatMoney(amount)}</dd>
        </div>
      ))}
      <div className="invoice-total-row invoice-balance">
        <dt>Balance</dt>
        <dd>{formatMoney(i.balance)}</dd>
      </div>
      {i.excess > 0 && (
        <div className="invoice-total-row">
          <dt>Paid beyond the invoice (kept for you)</dt>
          <dd>{formatMoney(i.excess)}</dd>
        </div>
      )}
    </dl>
  );
}

function Payments({ invoice: i }: { invoice: InvoiceView }) {
  return (
    <section aria-labelledby="invoice-payments" className="invoice-part">
      <h2 id="invoice-payments">Payments</h2>
      {i.payments.length === 0 ? (
        <p className="muted small">No payments yet.</p>
      ) : (
        <ul className="quote-lines">
          {i.payments.map((p) => (
            <li key={p.id}>
              <span className="org-wrap">
                <strong>{INVOICE_PAYMENT_KIND_LABELS[p.kind]}</strong> · {p.reference}
              </span>
              <span className="muted small">{formatDateTime(p.at)}</span>
              <span className="quote-money">
                {formatMoney(p.amount)}
                {p.excess > 0 && ` (${formatMoney(p.excess)} beyond the invoice)`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CreditNotes({ invoice: i }: { invoice: InvoiceView }) {
  if (!i.creditNotes.length) return null;
  return (
    <section aria-labelledby="invoice-credit-notes" className="invoice-part">
      <h2 id="invoice-credit-notes">Credit notes</h2>
      <ul className="quote-lines">
        {i.creditNotes.map((c) => (
          <li key={c.id}>
            <span className="org-wrap">
              <strong>{c.number}</strong> · {CREDIT_NOTE_REASON_LABELS[c.reason]}
            </span>
            <span className="muted small">{formatDate(c.at)}</span>
            <span className="quote-money">{formatMoney(c.amount)}</span>
            {c.note && <span className="small org-wrap quote-note invoice-note">{c.note}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Invoice({ invoice: i, etims }: { invoice: InvoiceView; etims: EtimsDocument[] }) {
  const [fetching, setFetching] = useState(false);
  const download = () => {
    setFetching(true);
    downloadInvoicePdf(i.id, i.number)
      .catch((e: Error) => toast.error(e.message))
      .finally(() => setFetching(false));
  };
  return (
    <>
      <div className="quote-head">
        <h1>Invoice {i.number}</h1>
        <InvoiceState invoice={i} />
      </div>
      <section className="org-card" aria-label="The invoice">
        <dl className="org-dl invoice-facts">
          <dt>Order</dt>
          <dd>
            {i.purchaseNumber} · {trancheText(i.tranche)}
          </dd>
          <dt>LPO</dt>
          <dd>{i.lpoNumber || '—'}</dd>
          <dt>Issued</dt>
          <dd>{formatDate(i.issuedAt)}</dd>
          <dt>Due</dt>
          <dd>
            {formatDate(i.dueDate)}
            {i.state === 'Open' && i.overdue && (
              <strong className="invoice-overdue">
                {' '}
                · {i.daysOverdue} day{i.daysOverdue === 1 ? '' : 's'} overdue
              </strong>
            )}
          </dd>
          <dt>Billed to</dt>
          <dd>
            {i.organisation.name} · KRA PIN {i.organisation.kraPin || '—'}
          </dd>
          <dt>From</dt>
          <dd>
            {i.shop.name} · KRA PIN {i.shop.kraPin || '—'}
          </dd>
        </dl>
        <ul className="quote-lines" aria-label="Lines">
          {i.lines.map((l) => (
            <li key={l.line}>
              <span className="org-wrap">
                <strong>{l.productName}</strong> · {l.unitName}
              </span>
              <span className="quote-qty">
                {n(l.quantity)} × {formatMoney(l.unitPrice)}
              </span>
              <span className="quote-money">{formatMoney(l.amount)}</span>
            </li>
          ))}
        </ul>
        <Totals invoice={i} />
        <PayingWords invoice={i} />
        <button type="button" className="btn btn-sm" onClick={download} disabled={fetching}>
          {fetching ? 'Preparing…' : 'Download invoice (PDF)'}
        </button>
      </section>
      {etims.length > 0 && (
        <Suspense fallback={<p className="muted small">Loading the eTIMS tax invoice...</p>}>
          <OrderEtims documents={etims} />
        </Suspense>
      )}
      <section className="org-card">
        <Payments invoice={i} />
        <CreditNotes invoice={i} />
      </section>
    </>
  );
}

/** /user/organisation?invoice=<id>: one invoice, for every person of the organisation. */
export function InvoicePage({ id }: { id: string }) {
  const { data, isPending, isError, error, refetch, isFetching } = useInvoice(id);
  let body;
  if (isPending) body = <Loading label="Loading the invoice…" />;
  else if (isError)
    body = (
      <>
        <h1>Invoice</h1>
        <Failed error={error} retry={() => void refetch()} retrying={isFetching} />
      </>
    );
  else body = <Invoice invoice={data.invoice} etims={data.etims ?? []} />;
  return (
    <div className="page org-page">
      <p className="small">
        <Link to={invoicePaths.list()}>← Invoices</Link>
      </p>
      {body}
    </div>
  );
}
