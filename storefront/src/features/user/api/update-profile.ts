import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfilePayload } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';
import { useSessionStore } from '../../../stores/session-store';
import { userKeys } from './get-profile';

export const updateProfile = (body: ProfilePayload) =>
  unwrap(api.PATCH('/api/users/profile', { body }));

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (res) => {
      queryClient.setQueryData(userKeys.profile, res);
      useSessionStore.getState().setUser(res.user);
    },
  });
}
