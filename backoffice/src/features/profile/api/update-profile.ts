import { BACKOFFICE_MESSAGES, type ProfilePayload, type Role } from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useSessionStore } from '../../../lib/session-store';
import { profileKeys } from './get-profile';
import { refreshQueries } from '../../../lib/refresh-queries';

/** Admin edits their record through /admin/profile; staff and customers through /users/profile. */
export async function updateProfile(role: Role | undefined, body: ProfilePayload) {
  return role === 'admin'
    ? unwrap(await api.PATCH('/api/admin/profile', { body }))
    : unwrap(await api.PATCH('/api/users/profile', { body }));
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const role = useSessionStore((s) => s.user?.role);
  const updateUser = useSessionStore((s) => s.updateUser);
  return useMutation({
    mutationFn: (body: ProfilePayload) => updateProfile(role, body),
    meta: { errorMessage: BACKOFFICE_MESSAGES.profileUpdateError },
    onSuccess: ({ user }) => {
      updateUser({ fullName: user.fullName, phoneNumber: user.phoneNumber });
      void refreshQueries(queryClient, profileKeys.all);
    },
  });
}
