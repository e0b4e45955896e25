import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { productKeys } from './get-products';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function deleteProduct(id: string) {
  return unwrap(await api.DELETE('/api/products/delete/{id}', { params: { path: { id } } }));
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    meta: { errorMessage: BACKOFFICE_MESSAGES.deleteError },
    onSettled: () => refreshQueries(queryClient, productKeys.all),
  });
}
