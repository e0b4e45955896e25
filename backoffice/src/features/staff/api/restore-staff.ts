import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { staffKeys } from './get-staff';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function restoreStaff(id: string) {
  return unwrap(await api.PATCH('/api/staff/restore/{id}', { params: { path: { id } } }));
}

export function useRestoreStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreStaff,
    meta: { errorMessage: BACKOFFICE_MESSAGES.restoreError },
    onSettled: () => refreshQueries(queryClient, staffKeys.all),
  });
}
