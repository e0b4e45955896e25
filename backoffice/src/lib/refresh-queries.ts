import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Refetches every query under `queryKey` after a change. A list still loading when the change lands
 * would otherwise keep that older answer (react-query dedupes onto a first fetch in flight), so
 * fetches in flight are cancelled first and started again.
 */
export async function refreshQueries(queryClient: QueryClient, queryKey: QueryKey) {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
