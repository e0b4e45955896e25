import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { LIMITS } from '@spc/shared-contracts';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';

/** Add Staff, edit staff and edit user: Full Name, Email Address, Phone Number (and Password). */
export function PersonForm<S extends z.ZodType<FieldValues, FieldValues>>({
  title,
  schema,
  defaultValues,
  withPassword,
  submitLabel,
  pending,
  onSubmit,
}: {
  title: string;
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  withPassword?: boolean;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: z.output<S>, reset: () => void) => void;
}) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never),
    values: defaultValues as z.input<S>,
  });
  const error = (name: string) =>
    form.formState.errors[name as keyof typeof form.formState.errors]?.message as
      string | undefined;
  const field = (name: string) => form.register(name as Path<z.input<S>>);
  return (
    <Paper withBorder p="lg" maw={520}>
      <form
        onSubmit={form.handleSubmit((values) => onSubmit(values, () => form.reset()))}
        noValidate
      >
        <Stack>
          <Title order={2}>{title}</Title>
          <TextInput label="Full Name" {...field('fullName')} error={error('fullName')} />
          <TextInput
            label="Email Address"
            type="email"
            {...field('email')}
            error={error('email')}
          />
          <TextInput
            label="Phone Number"
            type="tel"
            maxLength={LIMITS.phoneInputMaxDigits}
            {...field('phoneNumber')}
            error={error('phoneNumber')}
          />
          {withPassword && (
            <PasswordInput label="Password" {...field('password')} error={error('password')} />
          )}
          <Button type="submit" loading={pending} disabled={pending}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
