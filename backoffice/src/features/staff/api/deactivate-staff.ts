import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { staffKeys } from './get-staff';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function deactivateStaff(id: string) {
  return unwrap(await api.PATCH('/api/staff/softDelete/{id}', { params: { path: { id } } }));
}

export function useDeactivateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateStaff,
    meta: { errorMessage: BACKOFFICE_MESSAGES.deactivateError },
    onSettled: () => refreshQueries(queryClient, staffKeys.all),
  });
}
