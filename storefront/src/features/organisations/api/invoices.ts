import type {
  components,
  InvoiceFilter,
  InvoiceListResponse,
  InvoiceView,
  StatementView,
} from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';

/** How many invoices a page of the list shows. */
export const INVOICES_PER_PAGE = 20;

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (filter: InvoiceFilter, page: number) => ['invoices', 'list', { filter, page }] as const,
  detail: (id: string) => ['invoices', 'detail', id] as const,
  ofOrder: (orderId: string) => ['invoices', 'order', orderId] as const,
  statement: (organisationId: string, from: string, to: string) =>
    ['invoices', 'statement', organisationId, { from, to }] as const,
};

type Answer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * GET on the typed client for the invoice routes (issue 44), answered as the contract's views
 * (shared-contracts/src/invoices.ts): they were written beside the API, before its generated types
 * had them. Once `npm run contracts:generate` has them, `api.GET` is called directly.
 */
const get = <T>(path: string, query?: Record<string, string | number>) =>
  unwrap(
    (api.GET as unknown as (p: string, init: object) => Answer<T>)(path, { params: { query } }),
  );

const at = (id: string) => encodeURIComponent(id);

/** `GET /api/invoices`: the organisation's invoices (a customer sees only theirs), a page at a time. */
export const invoicesQueryOptions = (filter: InvoiceFilter, page: number) =>
  queryOptions({
    queryKey: invoiceKeys.list(filter, page),
    queryFn: () =>
      get<InvoiceListResponse>('/api/invoices', { filter, page, limit: INVOICES_PER_PAGE }),
    // Another page of the same list keeps the page shown meanwhile; another filter does not.
    placeholderData: (previous, query) =>
      query?.queryKey[2].filter === filter ? previous : undefined,
  });

export const useInvoices = (filter: InvoiceFilter, page: number) =>
  useQuery(invoicesQueryOptions(filter, page));

/** `GET /api/invoices/{id}`: one invoice with its lines, payments and credit notes. */
type EtimsDocument = components['schemas']['EtimsDocumentDto'];

export const useInvoice = (id: string) =>
  useQuery({
    queryKey: invoiceKeys.detail(id),
    // The invoice, and KRA eTIMS's signing of it and of its credit notes (empty while eTIMS is off).
    queryFn: () => get<{ invoice: InvoiceView; etims: EtimsDocument[] }>(`/api/invoices/${at(id)}`),
  });

/** `GET /api/orders/{id}/invoices`: the invoices of one order. */
export const useOrderInvoices = (orderId: string) =>
  useQuery({
    queryKey: invoiceKeys.ofOrder(orderId),
    queryFn: async () =>
      (await get<{ invoices: InvoiceView[] }>(`/api/orders/${at(orderId)}/invoices`)).invoices,
  });

/** `GET /api/organisations/{id}/statement`: the period's lines, balances and ageing. */
export const useStatement = (organisationId: string, from: string, to: string, enabled: boolean) =>
  useQuery({
    queryKey: invoiceKeys.statement(organisationId, from, to),
    queryFn: () =>
      get<StatementView>(`/api/organisations/${at(organisationId)}/statement`, {
        from,
        to,
        format: 'json',
      }),
    enabled: enabled && organisationId !== '',
  });

/**
 * The shop's paybill number, as the order pages learn it (`GET /api/payments/mpesa/pay-info/{n}`
 * of the invoice's order): null when M-Pesa is not set up. Asked here rather than through the
 * checkout's M-Pesa module, which would then be split from its chunk into one the first load names.
 */
export const usePaybill = (purchaseNumber: string, enabled: boolean) =>
  useQuery({
    queryKey: ['payments', 'mpesa', 'paybill', purchaseNumber] as const,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/payments/mpesa/pay-info/{purchaseNumber}', {
            params: { path: { purchaseNumber } },
          }),
        )
      ).paybill,
    enabled,
    staleTime: 60 * 60_000,
  });

/** The invoice's PDF, fetched signed in (the token goes in a header) and saved as `INV-….pdf`. */
export async function downloadInvoicePdf(id: string, number: string): Promise<void> {
  const blob = await fetchPdf(documentUrl(`/api/invoices/${at(id)}/pdf`), true);
  saveBlob(new Blob([blob], { type: 'application/pdf' }), `${number}.pdf`);
}

export type StatementFormat = 'pdf' | 'csv';

/** The statement of the period as a PDF or a CSV, saved as `statement-<PIN>-<to>.pdf|.csv`. */
export async function downloadStatement(
  organisationId: string,
  kraPin: string,
  from: string,
  to: string,
  format: StatementFormat,
): Promise<void> {
  const query = new URLSearchParams({ from, to, format });
  const blob = await fetchPdf(
    documentUrl(`/api/organisations/${at(organisationId)}/statement`, query),
    true,
  );
  const type = format === 'pdf' ? 'application/pdf' : 'text/csv';
  saveBlob(new Blob([blob], { type }), `statement-${kraPin || 'organisation'}-${to}.${format}`);
}
