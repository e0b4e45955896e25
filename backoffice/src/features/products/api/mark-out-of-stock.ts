import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { patchProductInLists, productKeys } from './get-products';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function markOutOfStock(id: string) {
  return unwrap(await api.PATCH('/api/products/check-stock/{id}', { params: { path: { id } } }));
}

export function useMarkOutOfStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markOutOfStock,
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: ({ product }) => patchProductInLists(queryClient, product),
    onSettled: () => refreshQueries(queryClient, productKeys.all),
  });
}
