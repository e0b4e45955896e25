import { BACKOFFICE_MESSAGES, type EditPersonForm } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { staffKeys } from './get-staff';
import { refreshQueries } from '../../../lib/refresh-queries';

export async function updateStaff({ id, values }: { id: string; values: EditPersonForm }) {
  return unwrap(
    await api.PATCH('/api/staff/update/{id}', {
      params: { path: { id } },
      body: { _id: id, updatedStaff: values },
    }),
  );
}

export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStaff,
    meta: { errorMessage: BACKOFFICE_MESSAGES.editStaffError },
    onSuccess: () => refreshQueries(queryClient, staffKeys.all),
  });
}
