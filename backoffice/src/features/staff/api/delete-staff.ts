import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { staffKeys } from './get-staff';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function deleteStaff(id: string) {
  return unwrap(await api.DELETE('/api/staff/delete/{id}', { params: { path: { id } } }));
}

export function useDeleteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStaff,
    meta: { errorMessage: BACKOFFICE_MESSAGES.deleteError },
    onSettled: () => refreshQueries(queryClient, staffKeys.all),
  });
}
