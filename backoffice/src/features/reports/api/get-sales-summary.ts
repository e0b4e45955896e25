import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export const salesKeys = {
  all: ['sales'] as const,
  summary: () => [...salesKeys.all, 'summary'] as const,
  report: (from: string, to: string) => [...salesKeys.all, 'report', { from, to }] as const,
};

export async function getSalesSummary() {
  return unwrap(await api.GET('/api/sales-summary'));
}

export const salesSummaryQueryOptions = () =>
  queryOptions({ queryKey: salesKeys.summary(), queryFn: getSalesSummary });

export const useSalesSummary = () => useQuery(salesSummaryQueryOptions());
