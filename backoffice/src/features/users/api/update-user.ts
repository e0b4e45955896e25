import { BACKOFFICE_MESSAGES, type EditPersonForm } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { userKeys } from './get-users';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function updateUser({ id, values }: { id: string; values: EditPersonForm }) {
  return unwrap(
    await api.PATCH('/api/user/update/{id}', {
      params: { path: { id } },
      body: { _id: id, updatedUser: values },
    }),
  );
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSuccess: () => refreshQueries(queryClient, userKeys.all),
  });
}
