import type { components } from '@spc/shared-contracts';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type ResetPasswordInput = components['schemas']['ResetPasswordDto'];

/** Sets a new password with the code of the e-mailed link (single use, one hour). */
export async function resetPassword(body: ResetPasswordInput) {
  return unwrap(await api.POST('/api/auth/reset/password', { body }));
}

export function useResetPassword() {
  return useMutation({
    mutationFn: resetPassword,
    meta: { errorMessage: BACKOFFICE_MESSAGES.tryAgain },
  });
}
