import { zodResolver } from '@hookform/resolvers/zod';
import {
  resetPasswordFormSchema,
  STOREFRONT_MESSAGES,
  TIMINGS,
  type ResetPasswordForm,
} from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useResetPassword } from '../api/reset-password';
import { AuthLayout } from '../components/auth-layout';

/** /authenticate/resetPassword/:code; the route token is sent as `code`. */
export function ResetPasswordRoute() {
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const mutation = useResetPassword();
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => navigate(paths.login), TIMINGS.redirectAfterSuccessMs);
    return () => clearTimeout(t);
  }, [done, navigate]);
  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      const res = await mutation.mutateAsync({ code, password });
      toast.success(res.message);
      setDone(true);
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.tryAgain);
      reset();
    }
  });
  return (
    <AuthLayout title="Reset password">
      <form onSubmit={onSubmit} noValidate>
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <button type="submit" className="btn btn-block" disabled={mutation.isPending || done}>
          {mutation.isPending ? 'Saving...' : 'Reset password'}
        </button>
      </form>
    </AuthLayout>
  );
}
