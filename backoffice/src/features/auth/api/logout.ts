import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSessionStore } from '../../../lib/session-store';

/** Revokes the refresh token; the local session ends whatever the server answers. */
export async function logout(refreshToken: string | null) {
  if (!refreshToken) return;
  await api.POST('/api/auth/logout', { body: { refreshToken } }).catch(() => undefined);
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout(useSessionStore.getState().refreshToken),
    meta: { successToast: false },
    onSettled: () => {
      useSessionStore.getState().signOut();
      queryClient.clear();
    },
  });
}
