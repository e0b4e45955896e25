import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { BACKOFFICE_MESSAGES, tillPinSchema, type TillPinForm } from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useForm } from 'react-hook-form';
import { useSetTillPin } from '../api/pin';
import { TillPinInput } from './till-pin-fields';

const tillPin = tillPinSchema();

/** A clerk's own till PIN (4 to 6 digits, not their password), set with their password. */
export function PinForm() {
  const mutation = useSetTillPin();
  const form = useForm<TillPinForm>({
    resolver: zodResolver(tillPin),
    defaultValues: { pin: '', currentPassword: '' },
  });
  const submit = form.handleSubmit((values) =>
    mutation.mutate(values, { onSettled: () => form.reset() }),
  );
  const e = form.formState.errors;
  return (
    <form onSubmit={submit} noValidate aria-label="Set my till PIN">
      <Stack maw={420}>
        <Text size="sm">
          Your till PIN approves a colleague’s void or refund. It is not your password; it locks
          after 5 wrong tries, and then an admin sets a new one.
        </Text>
        <TillPinInput
          size="lg"
          label="New till PIN"
          {...form.register('pin')}
          error={e.pin?.message}
          disabled={mutation.isPending}
        />
        <PasswordInput
          size="lg"
          label="Your password"
          autoComplete="current-password"
          {...form.register('currentPassword')}
          error={e.currentPassword?.message}
          disabled={mutation.isPending}
        />
        {mutation.isError && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Alert>
        )}
        {mutation.isSuccess && <Text c="green">Your till PIN is set.</Text>}
        <Button size="lg" type="submit" loading={mutation.isPending}>
          Save my PIN
        </Button>
      </Stack>
    </form>
  );
}
