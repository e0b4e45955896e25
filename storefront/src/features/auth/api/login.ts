import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const login = (body: { email: string; password: string }) =>
  unwrap(api.POST('/api/auth/login', { body }));

export const useLogin = () => useMutation({ mutationFn: login });
