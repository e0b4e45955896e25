import { zodResolver } from '@hookform/resolvers/zod';
import { Button, NativeSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { PAYMENT_METHODS, paymentFormSchema, type PaymentForm } from '@spc/shared-contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';

type PaymentInput = z.input<typeof paymentFormSchema>;

/**
 * Complete Payment: Cash or Mpesa, the amount (prefilled with the order total), and, for Mpesa only,
 * the transaction code and the time paid.
 */
export function PaymentFormFields({
  total,
  pending,
  onSubmit,
}: {
  total: number;
  pending?: boolean;
  onSubmit: (values: PaymentForm) => void;
}) {
  const form = useForm<PaymentInput, unknown, PaymentForm>({
    resolver: zodResolver(paymentFormSchema),
    defaultValues: {
      paymentMethod: '' as PaymentInput['paymentMethod'],
      amount: total,
      transactionCode: '',
      timePaid: '',
    },
  });
  const method = useWatch({ control: form.control, name: 'paymentMethod' });
  const e = form.formState.errors;
  const submit = form.handleSubmit((values) =>
    onSubmit(
      values.paymentMethod === 'Mpesa'
        ? values
        : { paymentMethod: values.paymentMethod, amount: values.amount },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <NativeSelect
          label="Payment Method"
          data={[{ value: '', label: 'Select payment method' }, ...PAYMENT_METHODS]}
          {...form.register('paymentMethod')}
          error={e.paymentMethod?.message}
        />
        <Controller
          control={form.control}
          name="amount"
          render={({ field }) => (
            <NumberInput
              label="Amount"
              prefix="KSH "
              thousandSeparator=","
              allowDecimal={false}
              min={0}
              value={(field.value as number | undefined) ?? ''}
              onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
              onBlur={field.onBlur}
              error={e.amount?.message}
            />
          )}
        />
        {method === 'Mpesa' && (
          <>
            <TextInput
              label="Transaction Code"
              {...form.register('transactionCode')}
              error={e.transactionCode?.message}
            />
            <TextInput
              label="Time Paid"
              type="datetime-local"
              {...form.register('timePaid')}
              error={e.timePaid?.message}
            />
          </>
        )}
        <Button type="submit" loading={pending} disabled={pending}>
          Complete Payment
        </Button>
      </Stack>
    </form>
  );
}
