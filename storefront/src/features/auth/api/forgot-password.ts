import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const forgotPassword = (body: { email: string }) =>
  unwrap(api.POST('/api/auth/forgot/password', { body }));

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
