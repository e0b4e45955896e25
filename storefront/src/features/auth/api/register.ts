import { useMutation } from '@tanstack/react-query';
import type { RegisterPayload } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';

export const registerAccount = (body: RegisterPayload) =>
  unwrap(api.POST('/api/auth/register', { body }));

export const useRegister = () => useMutation({ mutationFn: registerAccount });
