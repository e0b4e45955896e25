import { BACKOFFICE_MESSAGES, type CreateStaffPayload } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { staffKeys } from './get-staff';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function createStaff(body: CreateStaffPayload) {
  return unwrap(await api.POST('/api/staff', { body }));
}

export function useCreateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStaff,
    // The fixed text for a failed create-staff.
    meta: { errorMessage: BACKOFFICE_MESSAGES.loginError },
    onSuccess: () => refreshQueries(queryClient, staffKeys.all),
  });
}
