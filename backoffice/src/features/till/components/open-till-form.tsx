import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, NumberInput, Stack, Text, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES, openTillSchema, type OpenTillForm } from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { Controller, useForm } from 'react-hook-form';
import { useOpenSession } from '../api/sessions';

const openTill = openTillSchema();

/** No session open: the float counted into the drawer opens one. */
export function OpenTillFormCard() {
  const mutation = useOpenSession();
  const form = useForm<OpenTillForm>({ resolver: zodResolver(openTill) });
  const submit = form.handleSubmit((values) => mutation.mutate(values));
  const e = form.formState.errors;
  return (
    <Card withBorder padding="lg" maw={480}>
      <form onSubmit={submit} noValidate aria-label="Open till">
        <Stack>
          <Title order={2}>Open the till</Title>
          <Text>Count the cash in the drawer before the first sale: that is the float.</Text>
          <Controller
            control={form.control}
            name="float"
            render={({ field }) => (
              <NumberInput
                size="lg"
                label="Float (cash in the drawer)"
                prefix="KES "
                thousandSeparator=","
                allowDecimal={false}
                allowNegative={false}
                hideControls
                inputMode="numeric"
                value={field.value ?? ''}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                error={e.float?.message}
                disabled={mutation.isPending}
              />
            )}
          />
          {mutation.isError && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
            </Alert>
          )}
          <Button size="xl" type="submit" loading={mutation.isPending}>
            Open till
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
