import type { QuotationSummary } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { looseApi } from '../../../lib/api-client';
import {
  quotationKeys,
  QUOTATIONS_PAGE_SIZE,
  type QuotationsFilter,
} from '../../../lib/quotation-keys';

export interface QuotationsPage {
  quotations: QuotationSummary[];
  totalQuotations: number;
  totalPages: number;
  page: number;
}

export const getQuotations = ({ page, status, organisationId, search }: QuotationsFilter) =>
  unwrap(
    looseApi.GET<QuotationsPage>('/api/quotations', {
      params: { query: { page, limit: QUOTATIONS_PAGE_SIZE, status, organisationId, search } },
    }),
  );

export const quotationsQueryOptions = (filter: QuotationsFilter) =>
  queryOptions({
    queryKey: quotationKeys.list(filter),
    queryFn: () => getQuotations(filter),
    placeholderData: keepPreviousData,
  });

/** Quotations, latest change first, by status, organisation, or number and organisation name. */
export const useQuotations = (filter: QuotationsFilter) => useQuery(quotationsQueryOptions(filter));
