import { lazy, Suspense } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { problemText } from '../../../lib/api-client';
import { ErrorState, Loading } from '../../../components/states';
import { paths } from '../../../config/paths';
import { withNext } from '../../../lib/next-path';
import { useSessionStore } from '../../../stores/session-store';
import { useMyOrganisation } from '../api/organisations';
import { invoicePaths } from '../invoice-paths';
import { MyInvitations } from '../components/my-invitations';
import { OrgDetails } from '../components/org-details';
import { OrgPeople } from '../components/org-people';
import { OrgQuotations } from '../components/org-quotations';
import { QuotationPage } from '../components/quotation-page';
import '../organisations.css';

// The deliveries (tranches) are their own chunk: the screen stays within its budget.
const deliveries = () => import('../components/org-deliveries');
const OrgDeliveries = lazy(() => deliveries().then((m) => ({ default: m.OrgDeliveries })));
const OrderDeliveries = lazy(() => deliveries().then((m) => ({ default: m.OrderDeliveriesPage })));
// The invoices and the statement too.
const invoices = () => import('../components/org-invoices');
const InvoicesPage = lazy(() => invoices().then((m) => ({ default: m.InvoicesPage })));
const InvoicePage = lazy(() => invoices().then((m) => ({ default: m.InvoicePage })));
const StatementPage = lazy(() => invoices().then((m) => ({ default: m.StatementPage })));

/**
 * /user/organisation: the organisation the customer buys for, and invitations waiting for them;
 * with `?quotation=<id>`, one of its quotations; with `?order=<id>`, one order's deliveries; with
 * `?invoices=<filter>&page=<n>`, its invoices; `?invoice=<id>`, one invoice; `?statement&from=&to=`,
 * its statement of account.
 */
export function MyOrganisationRoute() {
  const user = useSessionStore((s) => (s.token || s.refreshToken ? s.user : null));
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const quotation = params.get('quotation');
  const order = params.get('order');
  const invoice = params.get('invoice');
  const filter = params.get('invoices');
  if (!user) return <Navigate to={withNext(paths.login, pathname + search)} replace />;
  if (user.role !== 'customer') return <Navigate to={paths.home} replace />;
  if (quotation) return <QuotationPage id={quotation} />;
  if (order)
    return (
      <Suspense fallback={<Loading />}>
        <OrderDeliveries orderId={order} />
      </Suspense>
    );
  if (invoice || filter !== null || params.has('statement'))
    return (
      <Suspense fallback={<Loading />}>
        {invoice ? (
          <InvoicePage id={invoice} />
        ) : filter !== null ? (
          <InvoicesPage filter={filter} page={params.get('page')} />
        ) : (
          <StatementPage />
        )}
      </Suspense>
    );
  return <MyOrganisation me={user._id} />;
}

function MyOrganisation({ me }: { me: string }) {
  const { data, isPending, isError, error } = useMyOrganisation();
  let body;
  if (isPending) body = <Loading />;
  else if (isError) body = <ErrorState message={problemText(error)} />;
  else if (!data.organisation)
    body = (
      <section className="org-card">
        <p>You do not buy for an organisation yet.</p>
        <p>
          Accept an invitation above, or{' '}
          <Link to={paths.organisations}>sign up your organisation</Link>.
        </p>
      </section>
    );
  else {
    const org = data.organisation;
    const approver = data.role === 'approver';
    body = (
      <>
        <h2 className="org-name org-title">{org.name}</h2>
        <p className="muted small">You are its {approver ? 'approver' : 'buyer'}.</p>
        {org.status === 'approved' && <OrgQuotations />}
        {org.status === 'approved' && (
          <Suspense fallback={null}>
            <OrgDeliveries />
          </Suspense>
        )}
        {org.status === 'approved' && (
          <section className="org-card" aria-labelledby="org-invoices">
            <h2 id="org-invoices">Invoices</h2>
            <p className="muted small">
              What the shop has invoiced your organisation, what is paid and what is still owed.
            </p>
            <p className="org-links">
              <Link to={invoicePaths.list()}>Invoices</Link>
              <Link to={invoicePaths.list('overdue')}>Overdue</Link>
              <Link to={invoicePaths.statement}>Statement of account</Link>
            </p>
          </section>
        )}
        <OrgDetails org={org} approver={approver} />
        <OrgPeople org={org} approver={approver} me={me} />
      </>
    );
  }
  return (
    <div className="page org-page">
      <h1>Your organisation</h1>
      <MyInvitations />
      {body}
    </div>
  );
}
