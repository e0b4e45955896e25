import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordFormSchema, STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Field } from '../../../components/field';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useForgotPassword } from '../api/forgot-password';
import { AuthLayout } from '../components/auth-layout';

export function ForgotPasswordRoute() {
  const mutation = useForgotPassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<z.infer<typeof forgotPasswordFormSchema>>({
    resolver: zodResolver(forgotPasswordFormSchema),
    defaultValues: { email: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync(values);
      toast.success(res.message);
      reset();
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.tryAgain);
    }
  });
  return (
    <AuthLayout title="Forgot password">
      {mutation.isSuccess && (
        <p role="status" className="notice">
          {mutation.data.message}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Email address"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <button type="submit" className="btn btn-block" disabled={mutation.isPending}>
          {mutation.isPending ? 'Sending...' : 'Send reset link'}
        </button>
      </form>
      <p className="small">
        <Link to={paths.login}>Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
