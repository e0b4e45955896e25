import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { forgotPasswordFormSchema } from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { paths } from '../../../config/paths';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard } from '../components/auth-card';

type ForgotForm = z.infer<typeof forgotPasswordFormSchema>;

/** /authenticate/forgotPassword: e-mails a link to the console's reset page. */
export function ForgotPasswordRoute() {
  const mutation = useForgotPassword();
  const form = useForm<ForgotForm>({
    resolver: zodResolver(forgotPasswordFormSchema),
    defaultValues: { email: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, { onSuccess: () => form.reset(), onError: () => form.reset() }),
  );
  return (
    <AuthCard title="Forgot password">
      <Text size="sm">
        Enter the e-mail address of your account and we will send you a link to choose a new
        password.
      </Text>
      {mutation.isSuccess && (
        <Alert color="green" role="status">
          {mutation.data.message}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Email Address"
            type="email"
            autoComplete="email"
            {...form.register('email')}
            error={form.formState.errors.email?.message}
          />
          <Button type="submit" loading={mutation.isPending} disabled={mutation.isPending}>
            Send reset link
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to={paths.login} size="sm">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
