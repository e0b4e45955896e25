import { BACKOFFICE_MESSAGES, type BulkOrderAction } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

export async function bulkOrders(body: { action: BulkOrderAction; orderIds: string[] }) {
  return unwrap(await api.POST('/api/orders/bulk', { body }));
}

export type BulkOrdersResult = Awaited<ReturnType<typeof bulkOrders>>;

/** One call for the whole batch; the answer says what was done and what was refused, and why. */
export function useBulkOrders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkOrders,
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong, successToast: false },
    onSettled: () => refreshQueries(queryClient, orderKeys.all),
  });
}
