import {
  AGEING_BUCKETS,
  AGEING_LABELS,
  formatDate,
  formatMoney,
  shopToday,
  type StatementView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loading } from '../../../components/states';
import { toast } from '../../../components/toast';
import { downloadStatement, useStatement, type StatementFormat } from '../api/invoices';
import { useMyOrganisation } from '../api/organisations';
import { invoicePaths } from '../invoice-paths';
import { Failed } from './invoice-bits';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const money = (x: number) => (x ? formatMoney(x) : '');

/** This month so far, in the shop's calendar: its first day to today. */
export function thisMonth(now = new Date()): { from: string; to: string } {
  const to = shopToday(now);
  return { from: `${to.slice(0, 8)}01`, to };
}

/** Why a period cannot be asked for, or null. */
function periodProblem(from: string, to: string): string | null {
  if (!DAY.test(from) || !DAY.test(to)) return 'Choose both days of the period.';
  if (from > to) return 'The first day must be on or before the last day.';
  return null;
}

function StatementTable({ statement: s }: { statement: StatementView }) {
  return (
    <div className="table-wrap" role="region" aria-label="Statement lines" tabIndex={0}>
      <table className="statement-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Reference</th>
            <th scope="col">Invoice</th>
            <th scope="col">Description</th>
            <th scope="col" className="num">
              Debit
            </th>
            <th scope="col" className="num">
              Credit
            </th>
            <th scope="col" className="num">
              Balance
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="statement-edge">
            <td>{formatDate(s.from)}</td>
            <td colSpan={5}>Opening balance</td>
            <td className="num">{formatMoney(s.openingBalance)}</td>
          </tr>
          {s.lines.map((l, k) => (
            <tr key={`${l.kind}:${l.reference}:${k}`}>
              <td>{formatDate(l.date)}</td>
              <td>{l.reference}</td>
              <td>{l.invoiceNumber}</td>
              <td className="wrap">{l.description}</td>
              <td className="num">{money(l.debit)}</td>
              <td className="num">{money(l.credit)}</td>
              <td className="num">{formatMoney(l.balance)}</td>
            </tr>
          ))}
          <tr className="statement-edge">
            <td>{formatDate(s.to)}</td>
            <td colSpan={5}>Closing balance</td>
            <td className="num">{formatMoney(s.closingBalance)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function Ageing({ statement: s }: { statement: StatementView }) {
  return (
    <section aria-labelledby="statement-ageing" className="invoice-part">
      <h2 id="statement-ageing">Ageing on {formatDate(s.to)}</h2>
      <div className="table-wrap" role="region" aria-label="Ageing" tabIndex={0}>
        <table>
          <thead>
            <tr>
              {AGEING_BUCKETS.map((b) => (
                <th key={b} scope="col" className="num">
                  {AGEING_LABELS[b]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {AGEING_BUCKETS.map((b) => (
                <td key={b} className="num">
                  {formatMoney(s.ageing[b])}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        Overdue: <strong>{formatMoney(s.overdue)}</strong>
        {s.excess > 0 && (
          <>
            {' '}
            · Paid beyond the invoices (kept for you): <strong>{formatMoney(s.excess)}</strong>
          </>
        )}
      </p>
    </section>
  );
}

/**
 * /user/organisation?statement&from=&to=: the organisation's statement of account for a period
 * (this month by default): opening balance, each invoice, payment, tax withheld and credit note,
 * closing balance, ageing; as a PDF or a CSV too.
 */
export function StatementPage() {
  const [params, setParams] = useSearchParams();
  const month = thisMonth();
  const from = params.get('from') ?? month.from;
  const to = params.get('to') ?? month.to;
  const problem = periodProblem(from, to);
  const mine = useMyOrganisation();
  const org = mine.data?.organisation;
  const statement = useStatement(org?._id ?? '', from, to, problem === null);
  const [fetching, setFetching] = useState<StatementFormat | null>(null);

  const setDay = (key: 'from' | 'to', value: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('from', from);
        next.set('to', to);
        next.set(key, value);
        return next;
      },
      { replace: true },
    );

  const download = (format: StatementFormat) => {
    if (!org || !statement.data) return;
    setFetching(format);
    downloadStatement(org._id, statement.data.organisation.kraPin, from, to, format)
      .catch((e: Error) => toast.error(e.message))
      .finally(() => setFetching(null));
  };

  let body;
  if (problem) body = <p className="state state-error">{problem}</p>;
  else if (mine.isError)
    body = (
      <Failed error={mine.error} retry={() => void mine.refetch()} retrying={mine.isFetching} />
    );
  else if (mine.data && !org) body = <p className="state">You do not buy for an organisation.</p>;
  else if (statement.isError)
    body = (
      <Failed
        error={statement.error}
        retry={() => void statement.refetch()}
        retrying={statement.isFetching}
      />
    );
  else if (!statement.data) body = <Loading label="Loading the statement…" />;
  else
    body = (
      <>
        {statement.data.lines.length === 0 && (
          <p className="muted small">Nothing was invoiced or paid in this period.</p>
        )}
        <StatementTable statement={statement.data} />
        <Ageing statement={statement.data} />
      </>
    );

  const busy = !statement.data || statement.isFetching || problem !== null || fetching !== null;
  return (
    <div className="page org-page">
      <p className="small">
        <Link to={invoicePaths.list()}>← Invoices</Link>
      </p>
      <h1>Statement of account</h1>
      {org && <p className="org-name muted">{org.name}</p>}
      <div className="statement-period">
        <label>
          From
          <input
            type="date"
            value={from}
            max={to}
            onChange={(e) => setDay('from', e.target.value)}
          />
        </label>
        <label>
          To
          <input type="date" value={to} min={from} onChange={(e) => setDay('to', e.target.value)} />
        </label>
      </div>
      <section className="org-card" aria-label="Statement">
        {body}
        <div className="statement-downloads">
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={busy}
            onClick={() => download('pdf')}
          >
            {fetching === 'pdf' ? 'Preparing…' : 'Download PDF'}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={busy}
            onClick={() => download('csv')}
          >
            {fetching === 'csv' ? 'Preparing…' : 'Download CSV'}
          </button>
        </div>
      </section>
    </div>
  );
}
