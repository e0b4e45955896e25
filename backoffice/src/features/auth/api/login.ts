import type { components } from '@spc/shared-contracts';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';

export type LoginInput = components['schemas']['LoginDto'];

export async function login(body: LoginInput) {
  return unwrap(await api.POST('/api/auth/login', { body }));
}

export function useLogin() {
  return useMutation({
    mutationFn: login,
    // The page decides what to say: a customer is not let in.
    meta: { errorMessage: BACKOFFICE_MESSAGES.loginError, successToast: false },
  });
}
