import {
  BACKOFFICE_MESSAGES,
  type QuotationRequestLine,
  type QuotationSummary,
  type QuotationView,
} from '@spc/shared-contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { looseApi } from '../../../lib/api-client';
import { quotationKeys, QUOTATIONS_PAGE_SIZE } from '../../../lib/quotation-keys';
import { refreshQueries } from '../../../lib/refresh-queries';

/** An organisation's quotations, latest change first (its first page). */
export const useOrganisationQuotations = (organisationId: string) => {
  const filter = { page: 1, organisationId };
  return useQuery({
    queryKey: quotationKeys.list(filter),
    queryFn: () =>
      unwrap(
        looseApi.GET<{ quotations: QuotationSummary[]; totalQuotations: number }>(
          '/api/quotations',
          { params: { query: { ...filter, limit: QUOTATIONS_PAGE_SIZE } } },
        ),
      ),
  });
};

/** Staff writing a quotation from a phone call: the request, for this organisation. */
export function useCreateQuotation(organisationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { lines: QuotationRequestLine[]; note: string }) =>
      unwrap(
        looseApi.POST<{ message: string; quotation: QuotationView }>('/api/quotations', {
          body: { ...body, organisationId },
        }),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSettled: () => refreshQueries(client, quotationKeys.all),
  });
}
