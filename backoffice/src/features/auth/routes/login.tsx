import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { loginFormSchema, type Role } from '@spc/shared-contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { landingFor, paths, storefrontPaths } from '../../../config/paths';
import { useSessionStore } from '../../../lib/session-store';
import { logout } from '../api/logout';
import { useLogin } from '../api/login';

type LoginForm = z.input<typeof loginFormSchema>;

export const CUSTOMER_REFUSED =
  'This console is for the shop’s staff. Please sign in on the shop instead.';

/** Where to go after signing in: back to the page the session ended on, if this role may open it. */
export function destination(from: string | undefined, role: Role): string {
  if (!from || from === '/' || from.startsWith('/authenticate')) return landingFor(role);
  const staffOnly = /^\/staff(\/|$)/.test(from);
  const adminOnly = /^\/(admin|create-staff|edit-staff|edit-user|colleagues)(\/|$)/.test(from);
  if (role === 'admin' && staffOnly) return landingFor(role);
  if (role === 'staff' && adminOnly) return landingFor(role);
  return from;
}

export function LoginRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const user = useSessionStore((s) => s.user);
  const signIn = useSessionStore((s) => s.signIn);
  const [refused, setRefused] = useState(false);
  const mutation = useLogin();
  const form = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });

  // Signed in (also right after the form's sign-in, which re-renders this before the navigation
  // below lands): both go to the same place, the page the user came from when they may see it.
  if (user && user.role !== 'customer')
    return <Navigate to={destination(from, user.role as Role)} replace />;

  const onSubmit = form.handleSubmit((values) => {
    setRefused(false);
    mutation.mutate(values, {
      onSuccess: ({ data }) => {
        if (data.user.role !== 'admin' && data.user.role !== 'staff') {
          setRefused(true);
          void logout(data.refreshToken);
          return;
        }
        signIn(data);
        navigate(destination(from, data.user.role as Role), { replace: true });
      },
      onError: () => form.resetField('password'),
    });
  });

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <div>
              <Text size="sm" tt="uppercase" c="dimmed">
                Seedling Propagation Centre
              </Text>
              <Title order={1} size="h2">
                Back office sign in
              </Title>
            </div>
            {refused && (
              <Alert color="red" title="Staff only" role="alert">
                {CUSTOMER_REFUSED} <Anchor href={storefrontPaths.shop}>Go to the shop</Anchor>
              </Alert>
            )}
            <TextInput
              label="Email Address"
              type="email"
              autoComplete="email"
              {...form.register('email')}
              error={form.formState.errors.email?.message}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              {...form.register('password')}
              error={form.formState.errors.password?.message}
            />
            <Anchor component={Link} to={paths.forgotPassword} size="sm" ta="right">
              Forgot password?
            </Anchor>
            <Button type="submit" loading={mutation.isPending} disabled={mutation.isPending}>
              Login
            </Button>
            <Anchor href={storefrontPaths.home} size="sm" ta="center">
              ← Back to home
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
