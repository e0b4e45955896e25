import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  staffResetPasswordFormSchema,
  TIMINGS,
  type ResetPasswordForm,
} from '@spc/shared-contracts';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from '../components/auth-card';

/** /authenticate/resetPassword/:code, the page the e-mailed link of staff and admin opens. */
export function ResetPasswordRoute() {
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const mutation = useResetPassword();
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(staffResetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const done = mutation.isSuccess;

  // After a reset the new password is used on the sign-in page, a moment after the message shows.
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(
      () => navigate(paths.login, { replace: true }),
      TIMINGS.redirectAfterSuccessMs,
    );
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = form.handleSubmit(({ password }) =>
    mutation.mutate({ code, password }, { onError: () => form.reset() }),
  );
  return (
    <AuthCard title="Reset password">
      {done && (
        <Alert color="green" role="status">
          {mutation.data.message}
        </Alert>
      )}
      {mutation.isError && (
        <Alert color="red" role="alert">
          {errorMessage(mutation.error, BACKOFFICE_MESSAGES.tryAgain)}{' '}
          <Anchor component={Link} to={paths.forgotPassword}>
            Ask for a new link
          </Anchor>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            {...form.register('confirmPassword')}
            error={form.formState.errors.confirmPassword?.message}
          />
          <Button type="submit" loading={mutation.isPending} disabled={mutation.isPending || done}>
            Reset password
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to={paths.login} size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
