import type { components } from '@spc/shared-contracts';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type ForgotPasswordInput = components['schemas']['ForgotPasswordDto'];

/** Asks the API to e-mail a reset link; it answers the same whether or not the account exists. */
export async function forgotPassword(body: ForgotPasswordInput) {
  return unwrap(await api.POST('/api/auth/forgot/password', { body }));
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: forgotPassword,
    meta: { errorMessage: BACKOFFICE_MESSAGES.tryAgain },
  });
}
