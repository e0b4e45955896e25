import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Text } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  tillPinResetSchema,
  type TillPinResetForm,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { Controller, useForm } from 'react-hook-form';
import { useApprovers } from '../api/approvers';
import { useResetTillPin } from '../api/pin';
import { StaffSelect, TillPinInput } from './till-pin-fields';

const resetPin = tillPinResetSchema();

/** Admins: a staff member's new till PIN (theirs is locked after 5 wrong tries, or forgotten). */
export function ResetPinForm() {
  const staff = useApprovers();
  const mutation = useResetTillPin();
  const form = useForm<TillPinResetForm>({
    resolver: zodResolver(resetPin),
    defaultValues: { staffId: '', pin: '' },
  });
  const submit = form.handleSubmit((values) =>
    mutation.mutate(values, { onSuccess: () => form.reset() }),
  );
  const e = form.formState.errors;
  return (
    <form onSubmit={submit} noValidate aria-label="Set a staff member’s till PIN">
      <Stack maw={420}>
        <Text size="sm">
          A PIN locks after 5 wrong tries. Set a new one here and tell the staff member; they can
          change it on the till page.
        </Text>
        <Controller
          control={form.control}
          name="staffId"
          render={({ field }) => (
            <StaffSelect
              size="md"
              label="Staff member"
              staff={staff}
              value={field.value}
              onChange={field.onChange}
              error={e.staffId?.message}
              disabled={mutation.isPending}
            />
          )}
        />
        <TillPinInput
          size="md"
          label="New till PIN"
          {...form.register('pin')}
          error={e.pin?.message}
          disabled={mutation.isPending}
        />
        {mutation.isError && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Alert>
        )}
        {mutation.isSuccess && <Text c="green">The new PIN is set.</Text>}
        <Button size="md" type="submit" loading={mutation.isPending}>
          Set PIN
        </Button>
      </Stack>
    </form>
  );
}
