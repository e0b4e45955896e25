import {
  formatDate,
  formatMoney,
  INVOICE_FILTERS,
  type InvoiceFilter,
  type InvoiceView,
} from '@spc/shared-contracts';
import { Link, useNavigate } from 'react-router';
import { Pagination } from '../../../components/pagination';
import { Loading } from '../../../components/states';
import { useInvoices, useOrderInvoices } from '../api/invoices';
import { invoicePaths } from '../invoice-paths';
import { BackToOrganisation, Failed, InvoiceState, trancheText } from './invoice-bits';
import './org-invoices.css';

export { InvoicePage } from './invoice-page';
export { StatementPage } from './statement';

const FILTER_LABELS: Record<InvoiceFilter, string> = {
  all: 'All',
  open: 'Open',
  overdue: 'Overdue',
  paid: 'Paid',
};

const EMPTY: Record<InvoiceFilter, string> = {
  all: 'No invoices yet. Each order from an accepted quotation is invoiced once it is delivered.',
  open: 'No open invoices: nothing is owed.',
  overdue: 'No overdue invoices.',
  paid: 'No paid invoices yet.',
};

/** The filter a `?invoices=` value names; anything else is all of them. */
const filterOf = (value: string): InvoiceFilter =>
  (INVOICE_FILTERS as readonly string[]).includes(value) ? (value as InvoiceFilter) : 'all';

/** The page a `?page=` value names: a whole number from 1. */
const pageOf = (value: string | null) => Math.max(1, Math.floor(Number(value)) || 1);

/** The invoices as a table that scrolls in its box on a phone; each number opens its invoice. */
function InvoiceTable({ invoices }: { invoices: InvoiceView[] }) {
  return (
    <div className="table-wrap invoice-table" role="region" aria-label="Invoice list" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Invoice</th>
            <th scope="col">Purchase number</th>
            <th scope="col">Tranche</th>
            <th scope="col">Issued</th>
            <th scope="col">Due</th>
            <th scope="col" className="num">
              Total
            </th>
            <th scope="col" className="num">
              Balance
            </th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((i) => (
            <tr key={i.id}>
              <th scope="row">
                <Link to={invoicePaths.one(i.id)}>{i.number}</Link>
              </th>
              <td>{i.purchaseNumber}</td>
              <td>{trancheText(i.tranche)}</td>
              <td>{formatDate(i.issuedAt)}</td>
              <td>{formatDate(i.dueDate)}</td>
              <td className="num">{formatMoney(i.total)}</td>
              <td className="num">{formatMoney(i.balance)}</td>
              <td>
                <InvoiceState invoice={i} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /user/organisation?invoices=<filter>&page=<n>: the organisation's invoices, for every person of
 * it: all, open, overdue or paid, a page at a time, with what the list owes.
 */
export function InvoicesPage(props: { filter: string; page: string | null }) {
  const filter = filterOf(props.filter);
  const page = pageOf(props.page);
  const navigate = useNavigate();
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useInvoices(
    filter,
    page,
  );
  let body;
  if (isPending) body = <Loading label="Loading the invoices…" />;
  else if (isError)
    body = <Failed error={error} retry={() => void refetch()} retrying={isFetching} />;
  else if (!data.invoices.length) body = <p className="state">{EMPTY[filter]}</p>;
  else
    body = (
      <>
        {filter !== 'paid' && data.owed > 0 && (
          <p>
            {filter === 'overdue' ? 'Overdue' : 'Owed'}: <strong>{formatMoney(data.owed)}</strong>{' '}
            <span className="muted small">
              ({data.total} invoice{data.total === 1 ? '' : 's'})
            </span>
          </p>
        )}
        <div aria-busy={isPlaceholderData}>
          <InvoiceTable invoices={data.invoices} />
        </div>
        <Pagination
          page={data.page}
          totalPages={data.pages}
          onChange={(p) => void navigate(invoicePaths.list(filter, p))}
        />
      </>
    );
  return (
    <div className="page org-page">
      <BackToOrganisation />
      <h1>Invoices</h1>
      <nav className="invoice-tabs" aria-label="Which invoices">
        {INVOICE_FILTERS.map((f) => (
          <Link
            key={f}
            to={invoicePaths.list(f)}
            className={f === filter ? 'active' : undefined}
            aria-current={f === filter ? 'page' : undefined}
          >
            {FILTER_LABELS[f]}
          </Link>
        ))}
      </nav>
      <section className="org-card" aria-label={`${FILTER_LABELS[filter]} invoices`}>
        {body}
      </section>
      <p>
        <Link to={invoicePaths.statement} className="btn btn-outline btn-sm">
          Statement of account
        </Link>
      </p>
    </div>
  );
}

/** An order's invoices, on its deliveries page (nothing while it has none). */
export function OrderInvoices({ orderId }: { orderId: string }) {
  const { data, isError, error, refetch, isFetching } = useOrderInvoices(orderId);
  if (!isError && !data?.length) return null;
  return (
    <section className="org-card" aria-labelledby="order-invoices">
      <h2 id="order-invoices">Invoices</h2>
      {isError ? (
        <Failed error={error} retry={() => void refetch()} retrying={isFetching} />
      ) : (
        <InvoiceTable invoices={data} />
      )}
    </section>
  );
}
