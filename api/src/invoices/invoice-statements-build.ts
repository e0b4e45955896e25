import {
  AGEING_BUCKETS,
  ageingBucket,
  CREDIT_NOTE_REASON_LABELS,
  INVOICE_PAYMENT_KIND_LABELS,
  trancheLabel,
  type AgeingBucket,
  type StatementLine,
  type StatementView,
} from '@spc/shared-contracts';
import { addDays, shopDay, startOfShopDay } from '../common/shop-clock';
import type { InvoiceSettlement } from './schemas/invoice.schema';

/** What a statement reads of an invoice (its document, as stored). */
export interface StatementInvoice {
  number: string;
  lpoNumber: string;
  tranche: number | null;
  total: number;
  issuedAt: Date;
  dueDate: string;
  excess: number;
  settlements: Pick<
    InvoiceSettlement,
    'kind' | 'amount' | 'reference' | 'number' | 'reason' | 'at'
  >[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from `from` to `to` (YYYY-MM-DD; negative when `to` is before). */
export function daysBetween(from: string, to: string): number {
  const utc = (d: string) => {
    const [y, m, day] = d.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, day);
  };
  return Math.round((utc(to) - utc(from)) / DAY_MS);
}

/** A settlement's line on the statement: its reference and words. */
function settlementLine(
  inv: StatementInvoice,
  s: StatementInvoice['settlements'][number],
): Pick<StatementLine, 'kind' | 'reference' | 'description'> {
  if (s.kind === 'creditNote') {
    const reason = s.reason ? ` (${CREDIT_NOTE_REASON_LABELS[s.reason]})` : '';
    const number = s.number ?? s.reference;
    return {
      kind: 'creditNote',
      reference: number,
      description: `Credit note ${number}${reason} for ${inv.number}`,
    };
  }
  const what =
    s.kind === 'withholding'
      ? `Tax withheld, certificate ${s.reference}`
      : `${INVOICE_PAYMENT_KIND_LABELS[s.kind]} ${s.reference}`;
  return { kind: s.kind, reference: s.reference, description: `${what} for ${inv.number}` };
}

/**
 * An organisation's statement from its invoices (issue 44, docs/invoices.md): what was owed before
 * `from` (invoices issued before it less their settlements dated before it); each invoice issued
 * and each settlement dated in the period, in time order, with the balance after it; what is owed
 * at the end of `to`, by days past each invoice's due date (AGEING_BUCKETS); the excess paid. Days
 * are the shop's (Africa/Nairobi), both ends included. Invoices issued after `to` are left out.
 */
export function buildStatement(
  parties: Pick<StatementView, 'organisation' | 'shop'>,
  invoices: readonly StatementInvoice[],
  from: string,
  to: string,
): StatementView {
  const start = startOfShopDay(from).getTime();
  const end = startOfShopDay(addDays(to, 1)).getTime();
  let openingBalance = 0;
  const ageing = Object.fromEntries(AGEING_BUCKETS.map((b) => [b, 0])) as Record<
    AgeingBucket,
    number
  >;
  const entries: { at: number; order: number; line: Omit<StatementLine, 'balance'> }[] = [];
  let excess = 0;
  for (const inv of invoices) {
    const issued = new Date(inv.issuedAt).getTime();
    if (issued >= end) continue;
    excess += inv.excess ?? 0;
    if (issued < start) openingBalance += inv.total;
    else
      entries.push({
        at: issued,
        order: 0,
        line: {
          date: shopDay(new Date(issued)),
          kind: 'invoice',
          reference: inv.number,
          invoiceNumber: inv.number,
          description: `Invoice ${inv.number}${inv.tranche ? `, tranche ${trancheLabel(inv.tranche)}` : ''}, LPO ${inv.lpoNumber}, due ${inv.dueDate}`,
          debit: inv.total,
          credit: 0,
        },
      });
    let owedAtEnd = inv.total;
    for (const s of inv.settlements ?? []) {
      const at = new Date(s.at).getTime();
      if (at >= end) continue;
      owedAtEnd -= s.amount;
      if (at < start) openingBalance -= s.amount;
      else
        entries.push({
          at,
          order: 1,
          line: {
            date: shopDay(new Date(at)),
            invoiceNumber: inv.number,
            ...settlementLine(inv, s),
            debit: 0,
            credit: s.amount,
          },
        });
    }
    if (owedAtEnd > 0) ageing[ageingBucket(daysBetween(inv.dueDate, to))] += owedAtEnd;
  }
  entries.sort(
    (a, b) =>
      a.at - b.at ||
      a.order - b.order ||
      a.line.invoiceNumber.localeCompare(b.line.invoiceNumber) ||
      a.line.reference.localeCompare(b.line.reference),
  );
  let balance = openingBalance;
  const lines = entries.map(({ line }) => {
    balance += line.debit - line.credit;
    return { ...line, balance };
  });
  return {
    ...parties,
    from,
    to,
    openingBalance,
    lines,
    closingBalance: balance,
    ageing,
    overdue: AGEING_BUCKETS.filter((b) => b !== 'current').reduce((n, b) => n + ageing[b], 0),
    excess,
  };
}
