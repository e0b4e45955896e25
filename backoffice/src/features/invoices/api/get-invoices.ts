import type { InvoiceListResponse } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { invoiceKeys, INVOICES_PAGE_SIZE, type InvoicesFilter } from '../../../lib/invoices';

/** `GET /api/invoices`: one filter's invoices, newest first (overdue: oldest due first). */
export const getInvoices = ({ filter, page, organisationId }: InvoicesFilter) =>
  unwrap(
    looseApi.GET<InvoiceListResponse>('/api/invoices', {
      params: { query: { filter, page, limit: INVOICES_PAGE_SIZE, organisationId } },
    }),
  );

export const invoicesQueryOptions = (filter: InvoicesFilter) =>
  queryOptions({
    queryKey: invoiceKeys.list(filter),
    queryFn: () => getInvoices(filter),
    placeholderData: keepPreviousData,
  });

export const useInvoices = (filter: InvoicesFilter) => useQuery(invoicesQueryOptions(filter));
