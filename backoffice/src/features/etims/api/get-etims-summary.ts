import type { EtimsSummaryResponse } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { downloadPdf } from '../../../lib/pdf';
import { etimsKeys } from './etims-keys';

/** `GET /api/reports/etims`: per shop day, both ends included (YYYY-MM-DD). */
export const getEtimsSummary = (from: string, to: string) =>
  unwrap(
    looseApi.GET<EtimsSummaryResponse>('/api/reports/etims', { params: { query: { from, to } } }),
  );

export const etimsSummaryQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: etimsKeys.summary(from, to),
    queryFn: () => getEtimsSummary(from, to),
    placeholderData: keepPreviousData,
  });

export const useEtimsSummary = (from: string, to: string, enabled = true) =>
  useQuery({ ...etimsSummaryQueryOptions(from, to), enabled });

/** The summary's CSV, made (and its export audited) by the API, as `etims-summary-<from>-to-<to>.csv`. */
export const downloadEtimsSummaryCsv = (from: string, to: string) =>
  downloadPdf(
    `/api/reports/etims.csv?${new URLSearchParams({ from, to })}`,
    `etims-summary-${from}-to-${to}.csv`,
  );
