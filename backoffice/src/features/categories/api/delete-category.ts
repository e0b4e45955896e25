import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { categoryKeys } from './get-categories';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function deleteCategory(id: string) {
  return unwrap(await api.DELETE('/api/categories/delete/{id}', { params: { path: { id } } }));
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    meta: { errorMessage: BACKOFFICE_MESSAGES.categoryDeleteError },
    onSettled: () => refreshQueries(queryClient, categoryKeys.all),
  });
}
