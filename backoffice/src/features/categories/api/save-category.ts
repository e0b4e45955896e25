import { BACKOFFICE_MESSAGES, type CategoryForm } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { categoryKeys } from './get-categories';
import { refreshQueries } from '../../../lib/refresh-queries';

/** Creates a category, or updates it when an id is given. */
export async function saveCategory({ id, body }: { id?: string; body: CategoryForm }) {
  return id
    ? unwrap(await api.PUT('/api/categories/update/{id}', { params: { path: { id } }, body }))
    : unwrap(await api.POST('/api/categories', { body }));
}

export function useSaveCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCategory,
    meta: { errorMessage: BACKOFFICE_MESSAGES.categorySaveError },
    onSuccess: () => refreshQueries(queryClient, categoryKeys.all),
  });
}
