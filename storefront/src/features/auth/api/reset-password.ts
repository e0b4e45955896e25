import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const resetPassword = (body: { code: string; password: string }) =>
  unwrap(api.POST('/api/auth/reset/password', { body }));

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
