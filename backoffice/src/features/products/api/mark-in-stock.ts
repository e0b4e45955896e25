import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { patchProductInLists, productKeys } from './get-products';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function markInStock({
  id,
  productQuantity,
}: {
  id: string;
  productQuantity: number;
}) {
  return unwrap(
    await api.PATCH('/api/products/update-stock/{id}', {
      params: { path: { id } },
      body: { productQuantity },
    }),
  );
}

export function useMarkInStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markInStock,
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSuccess: ({ product }) => {
      patchProductInLists(queryClient, product);
      return refreshQueries(queryClient, productKeys.all);
    },
  });
}
