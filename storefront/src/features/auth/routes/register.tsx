import { zodResolver } from '@hookform/resolvers/zod';
import {
  registerFormSchema,
  STOREFRONT_MESSAGES,
  TIMINGS,
  type RegisterForm,
} from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field } from '../../../components/field';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { nextPath, withNext } from '../../../lib/next-path';
import { useRegister } from '../api/register';
import { AuthLayout } from '../components/auth-layout';

export function RegisterRoute() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const login = withNext(paths.login, nextPath(search));
  const mutation = useRegister();
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { fullName: '', phoneNumber: '', email: '', password: '', confirmPassword: '' },
  });

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => navigate(login), TIMINGS.redirectAfterSuccessMs);
    return () => clearTimeout(t);
  }, [done, navigate, login]);

  const onSubmit = handleSubmit(async ({ confirmPassword: _c, ...body }) => {
    try {
      const res = await mutation.mutateAsync(body);
      toast.success(res.message);
      setDone(true);
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.tryAgain);
    }
  });

  return (
    <AuthLayout title="Create an account">
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Full name"
          autoComplete="name"
          error={errors.fullName?.message}
          {...register('fullName')}
        />
        <Field
          label="Phone number"
          type="tel"
          autoComplete="tel"
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <Field
          label="Email address"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordField
          label="Password"
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
          {mutation.isPending ? 'Creating account...' : 'Create account'}
        </button>
      </form>
      <p className="small">
        How we use your details: <Link to={paths.privacy}>privacy notice</Link>.
      </p>
      <p className="small">
        Already have an account? <Link to={login}>Sign in</Link>
      </p>
    </AuthLayout>
  );
}
