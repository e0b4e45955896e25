import { useMutation } from '@tanstack/react-query';
import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { api, ApiError, unwrap } from '../../../lib/api-client';
import { useSessionStore } from '../../../stores/session-store';

export async function changePassword(body: { currentPassword: string; newPassword: string }) {
  if (!useSessionStore.getState().token) throw new ApiError(STOREFRONT_MESSAGES.tokenMissing, 401);
  const res = await unwrap(api.POST('/api/auth/change/password', { body }));
  // The API rotates the session on a password change.
  if (res.data) useSessionStore.getState().setTokens(res.data);
  return res;
}

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
