import { ORGANISATION_STATUS_LABELS } from '@spc/shared-contracts';
import { Link } from 'react-router';
import { ErrorState, Loading } from '../../../components/states';
import { paths } from '../../../config/paths';
import { problemText } from '../../../lib/api-client';
import { withNext } from '../../../lib/next-path';
import { useSessionStore } from '../../../stores/session-store';
import { useMyOrganisation } from '../api/organisations';
import { SignUpForm } from '../components/sign-up-form';
import '../organisations.css';

/** What a signed-in customer sees below the offer: the form, or the organisation they buy for. */
function SignUp() {
  const user = useSessionStore((s) => s.user);
  const customer = user?.role === 'customer';
  const mine = useMyOrganisation(customer);
  if (!user)
    return (
      <p>
        To sign up your organisation, first{' '}
        <Link to={withNext(paths.login, paths.organisations)}>sign in</Link> or{' '}
        <Link to={withNext(paths.register, paths.organisations)}>create an account</Link>; you will
        come back here. The person who signs it up becomes its approver.
      </p>
    );
  if (!customer)
    return (
      <p>
        Organisations are signed up from a customer account; staff register them in the back office.
      </p>
    );
  if (mine.isPending) return <Loading />;
  if (mine.isError) return <ErrorState message={problemText(mine.error)} />;
  const org = mine.data.organisation;
  if (org)
    return (
      <div className="org-status-box" role="status">
        <p>
          You buy for <strong className="org-name">{org.name}</strong>:{' '}
          {org.status === 'pending'
            ? 'waiting for approval by the shop. We will be in touch.'
            : ORGANISATION_STATUS_LABELS[org.status]}
        </p>
        <Link className="btn btn-outline btn-sm" to={paths.myOrganisation}>
          Your organisation
        </Link>
      </div>
    );
  return <SignUpForm />;
}

/** /organisations: what the shop offers institutions, and their sign-up. */
export function ForOrganisationsRoute() {
  return (
    <div className="page org-page">
      <h1>For organisations</h1>
      <p className="lead">
        Counties, NGOs, schools, churches, co-operatives and companies planting trees buy from us in
        quantity. A business account lets several of your people buy for your organisation.
      </p>
      <section aria-labelledby="offer">
        <h2 id="offer">What a business account gives you</h2>
        <ul className="org-offer">
          <li>Your organisation&apos;s KRA PIN and contacts kept with your account.</li>
          <li>Several people buying for it: buyers, and approvers who manage its people.</li>
          <li>Terms and prices the shop agrees with you once your account is approved.</li>
        </ul>
        <h2>Coming soon</h2>
        <p>
          Quotations, orders against your LPO, delivery in tranches to your planting sites and
          invoices paid on terms are being built and are not online yet. Until then, for a large
          order please <Link to={paths.contact}>contact the shop</Link>.
        </p>
      </section>
      <section aria-labelledby="sign-up" className="org-card">
        <h2 id="sign-up">Sign up your organisation</h2>
        <p>The shop checks each organisation before approving it.</p>
        <SignUp />
      </section>
    </div>
  );
}
