import type { components } from '@spc/shared-contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { salesKeys } from './get-sales-summary';

export type SalesReport = components['schemas']['SalesReportDto'];

/** Dates are YYYY-MM-DD, both ends included. */
export async function getSalesReport(from: string, to: string) {
  return unwrap(await api.GET('/api/sales-summary/report', { params: { query: { from, to } } }));
}

export const salesReportQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: salesKeys.report(from, to),
    queryFn: () => getSalesReport(from, to),
    placeholderData: keepPreviousData,
  });

export const useSalesReport = (from: string, to: string) =>
  useQuery(salesReportQueryOptions(from, to));
