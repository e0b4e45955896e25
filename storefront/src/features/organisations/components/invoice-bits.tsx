import { trancheLabel, type InvoiceView } from '@spc/shared-contracts';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { problemText } from '../../../lib/api-client';

/** "T2", or "Whole order" for an invoice of the whole order. */
export const trancheText = (tranche: number | null) =>
  tranche === null ? 'Whole order' : trancheLabel(tranche);

/** Where an invoice stands, in words: Open, Paid, Credited, or "Overdue · 12 days". */
export function InvoiceState({
  invoice: i,
}: {
  invoice: Pick<InvoiceView, 'state' | 'overdue' | 'daysOverdue'>;
}) {
  const overdue = i.state === 'Open' && i.overdue;
  return (
    <span className={`quote-status invoice-state-${overdue ? 'overdue' : i.state.toLowerCase()}`}>
      {overdue ? `Overdue · ${i.daysOverdue} day${i.daysOverdue === 1 ? '' : 's'}` : i.state}
    </span>
  );
}

/** A failed read in words, with "Try again". */
export function Failed({
  error,
  retry,
  retrying,
}: {
  error: unknown;
  retry: () => void;
  retrying: boolean;
}) {
  return (
    <div className="state state-error" role="alert">
      <p>{problemText(error)}</p>
      <button type="button" className="btn btn-outline btn-sm" onClick={retry} disabled={retrying}>
        {retrying ? 'Trying again…' : 'Try again'}
      </button>
    </div>
  );
}

export const BackToOrganisation = () => (
  <p className="small">
    <Link to={paths.myOrganisation}>← Your organisation</Link>
  </p>
);
