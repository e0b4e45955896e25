import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { userKeys } from './get-users';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function deleteUser(id: string) {
  return unwrap(await api.DELETE('/api/user/delete/{id}', { params: { path: { id } } }));
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    meta: { errorMessage: BACKOFFICE_MESSAGES.deleteError },
    onSettled: () => refreshQueries(queryClient, userKeys.all),
  });
}
