import type { QuotationView } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { looseApi } from '../../../lib/api-client';
import { quotationKeys } from '../../../lib/quotation-keys';

export const getQuotation = async (id: string) =>
  (await unwrap(looseApi.GET<{ quotation: QuotationView }>(`/api/quotations/${id}`))).quotation;

export const quotationQueryOptions = (id: string) =>
  queryOptions({ queryKey: quotationKeys.detail(id), queryFn: () => getQuotation(id) });

/** One quotation with its request, versions sent, the staff's draft and the thread. */
export const useQuotation = (id: string) => useQuery(quotationQueryOptions(id));
