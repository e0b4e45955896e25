import type { InvoiceFilter } from '@spc/shared-contracts';
import { downloadPdf } from './pdf';

/** What a list of invoices is asked by (the invoices page, or one organisation's). */
export interface InvoicesFilter {
  filter: InvoiceFilter;
  page: number;
  organisationId?: string;
}

/**
 * The query keys of invoices (issue 44): the invoices page, an order's invoices and an
 * organisation's statement all read them, so a payment recorded on one refreshes the others.
 */
export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (filter: InvoicesFilter) => [...invoiceKeys.all, 'list', filter] as const,
  detail: (id: string) => [...invoiceKeys.all, 'detail', id] as const,
  ofOrder: (orderId: string) => [...invoiceKeys.all, 'order', orderId] as const,
  statement: (organisationId: string, from: string, to: string) =>
    [...invoiceKeys.all, 'statement', organisationId, { from, to }] as const,
};

export const INVOICES_PAGE_SIZE = 20;

/** The invoice's PDF (`INV-000001.pdf`), fetched signed in and handed to the browser. */
export const downloadInvoicePdf = (id: string, number: string) =>
  downloadPdf(`/api/invoices/${id}/pdf`, `${number}.pdf`);

/** An organisation's statement as a file, named as the API names it: `statement-<PIN>-<to>`. */
export const downloadStatement = (
  organisationId: string,
  kraPin: string,
  period: { from: string; to: string },
  format: 'pdf' | 'csv',
) =>
  downloadPdf(
    `/api/organisations/${organisationId}/statement?${new URLSearchParams({ ...period, format })}`,
    `statement-${kraPin}-${period.to}.${format}`,
  );
