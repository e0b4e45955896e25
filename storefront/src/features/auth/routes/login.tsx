import { zodResolver } from '@hookform/resolvers/zod';
import { loginFormSchema, STOREFRONT_MESSAGES, TIMINGS } from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Field } from '../../../components/field';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { external } from '../../../lib/external';
import { nextPath } from '../../../lib/next-path';
import { backofficeHome } from '../../../lib/roles';
import { useCartStore } from '../../../stores/cart-store';
import { useSessionStore } from '../../../stores/session-store';
import { useLogin } from '../api/login';
import { AuthLayout } from '../components/auth-layout';

type LoginForm = z.infer<typeof loginFormSchema>;

/** After 2 s: admin and staff to the back office, everyone else to the shop. */
export function LoginRoute() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const signIn = useSessionStore((s) => s.signIn);
  const mutation = useLogin();
  const [target, setTarget] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });

  useEffect(() => {
    if (!target) return;
    const t = setTimeout(() => {
      if (target.startsWith('http')) external.go(target);
      else navigate(target);
    }, TIMINGS.redirectAfterSuccessMs);
    return () => clearTimeout(t);
  }, [target, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync(values);
      signIn(res.data);
      // A guest's cart goes along with whoever signs in (another user's cart is emptied).
      useCartStore.getState().adoptUser(res.data.user._id);
      toast.success(res.message);
      setTarget(backofficeHome(res.data.user.role) ?? nextPath(search) ?? paths.shop);
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : STOREFRONT_MESSAGES.loginError);
    }
  });

  return (
    <AuthLayout title="Sign in to your account">
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="Email address"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <p className="small">
          <Link to={paths.forgotPassword}>Forgot password?</Link>
        </p>
        <button
          type="submit"
          className="btn btn-block"
          disabled={mutation.isPending || target !== null}
        >
          {mutation.isPending ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
      <p className="small">
        New here? <Link to={paths.register}>Create a new account</Link>
      </p>
    </AuthLayout>
  );
}
