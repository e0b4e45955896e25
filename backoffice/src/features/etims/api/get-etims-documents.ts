import { ETIMS_OFFICE_LIMITS, type EtimsDocumentListResponse } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { etimsKeys, type EtimsDocumentsFilter } from './etims-keys';

/** How often the queue looks again while a document of the page is on its way to KRA. */
export const ETIMS_REFRESH_MS = 5000;

/** `GET /api/etims/documents`: a state's documents (none: not signed yet), newest first. */
export const getEtimsDocuments = ({ state, page }: EtimsDocumentsFilter) =>
  unwrap(
    looseApi.GET<EtimsDocumentListResponse>('/api/etims/documents', {
      params: { query: { state, page, limit: ETIMS_OFFICE_LIMITS.pageSize } },
    }),
  );

export const etimsDocumentsQueryOptions = (filter: EtimsDocumentsFilter) =>
  queryOptions({
    queryKey: etimsKeys.documents(filter),
    queryFn: () => getEtimsDocuments(filter),
    placeholderData: keepPreviousData,
    // A document resent is queued, then signed or refused within seconds: the page follows it.
    refetchInterval: (query) =>
      query.state.data?.documents.some((d) => d.state === 'queued' || d.state === 'sending')
        ? ETIMS_REFRESH_MS
        : false,
  });

export const useEtimsDocuments = (filter: EtimsDocumentsFilter) =>
  useQuery(etimsDocumentsQueryOptions(filter));
