import type { components, InvoiceView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/invoices';

/** `GET /api/invoices/:id`: the invoice with its lines, payments, credit notes and reminders. */
export const getInvoice = async (id: string) =>
  (await unwrap(looseApi.GET<{ invoice: InvoiceView }>(`/api/invoices/${id}`))).invoice;

export const invoiceQueryOptions = (id: string) =>
  queryOptions({ queryKey: invoiceKeys.detail(id), queryFn: () => getInvoice(id) });

export const useInvoice = (id: string) => useQuery(invoiceQueryOptions(id));

/** The invoice's and its credit notes' KRA eTIMS signing (the same answer's `etims`). */
export const invoiceEtimsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...invoiceKeys.detail(id), 'etims'] as const,
    queryFn: async () =>
      (
        await unwrap(
          looseApi.GET<{ etims?: components['schemas']['EtimsDocumentDto'][] }>(
            `/api/invoices/${id}`,
          ),
        )
      ).etims ?? [],
  });

export const useInvoiceEtims = (id: string) => useQuery(invoiceEtimsQueryOptions(id));
