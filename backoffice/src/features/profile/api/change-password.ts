import { BACKOFFICE_MESSAGES, type components } from '@spc/shared-contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useSessionStore } from '../../../lib/session-store';

export type ChangePasswordInput = components['schemas']['ChangePasswordDto'];

export async function changePassword(body: ChangePasswordInput) {
  return unwrap(await api.POST('/api/auth/change/password', { body }));
}

export function useChangePassword() {
  const setTokens = useSessionStore((s) => s.setTokens);
  return useMutation({
    mutationFn: changePassword,
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    // The server revokes the old refresh tokens and hands over a new pair.
    onSuccess: ({ data }) => setTokens(data),
  });
}
