import { toCsv, type CsvValue } from '@spc/shared-contracts';
import type { SalesReport } from '../api/get-sales-report';

/**
 * The report of a range as CSV: one row per day, then the totals, then the refunds (paid orders
 * cancelled with their money given back: how many, and the KES given back). Money in whole KES.
 */
export function reportToCsv(report: SalesReport): string {
  const rows: CsvValue[][] = [['date', 'orders', 'revenue_kes']];
  for (const day of report.series) rows.push([day.date, day.orders, day.revenue]);
  rows.push(['total', report.totals.orders, report.totals.revenue]);
  rows.push(['refunds', report.totals.refunds.orders, report.totals.refunds.amount]);
  return toCsv(rows);
}

/** Saves the CSV through a Blob link; nothing goes to the server. */
export function downloadCsv(filename: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
