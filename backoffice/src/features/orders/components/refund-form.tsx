import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  TextInput,
} from '@mantine/core';
import {
  formatMoney,
  PAYMENT_METHODS,
  REFUND_REFERENCE_MAX,
  refundFormSchema,
  type RefundForm,
  type RefundFormInput,
} from '@spc/shared-contracts';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { Order } from '../api/get-orders';

const METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  Cash: 'Cash',
  Mpesa: 'M-Pesa',
};

/** What was paid for the order: the recorded payment's amount, paybill part payments, else the total. */
export const amountPaid = (order: Order) =>
  order.paymentDetails?.amount ?? (order.amountPaid || order.totalAmount);

/**
 * Cancel and refund: a paid order is cancelled only with its refund, given back by cash or M-Pesa,
 * for the amount paid (prefilled), with the M-Pesa reversal code (or, for cash, an optional note).
 */
export function RefundFormFields({
  order,
  pending,
  onSubmit,
  onCancel,
}: {
  order: Order;
  pending?: boolean;
  onSubmit: (values: RefundForm) => void;
  onCancel: () => void;
}) {
  const paid = amountPaid(order);
  const schema = useMemo(() => refundFormSchema(paid), [paid]);
  const form = useForm<RefundFormInput, unknown, RefundForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      method: (order.paymentMethod ?? '') as RefundFormInput['method'],
      amount: paid,
      reference: '',
      send: false,
    },
  });
  const method = useWatch({ control: form.control, name: 'method' });
  const send = useWatch({ control: form.control, name: 'send' });
  const sending = method === 'Mpesa' && !!send;
  const e = form.formState.errors;
  const paidBy = order.paymentMethod ? ` by ${METHOD_LABELS[order.paymentMethod]}` : '';
  const code = order.paymentDetails?.transactionCode;
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Stack>
        <Alert
          color="yellow"
          title={order.paymentStatus === 'Paid' ? 'This order is paid' : 'This order is part-paid'}
        >
          {`${formatMoney(paid, 'KSH')} was paid${paidBy}${code ? ` (code ${code})` : ''}. Cancelling it gives the money back: record the refund below.`}
        </Alert>
        <NativeSelect
          label="Refund method"
          data={[
            { value: '', label: 'Select refund method' },
            ...PAYMENT_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] })),
          ]}
          {...form.register('method')}
          error={e.method?.message}
          disabled={pending}
        />
        <Controller
          control={form.control}
          name="amount"
          render={({ field }) => (
            <NumberInput
              label="Refund amount"
              description="The amount paid, in full"
              prefix="KSH "
              thousandSeparator=","
              allowDecimal={false}
              min={0}
              value={(field.value as number | undefined) ?? ''}
              onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
              onBlur={field.onBlur}
              error={e.amount?.message}
              disabled={pending}
            />
          )}
        />
        {method === 'Mpesa' && (
          <Checkbox
            label="Send it back through M-Pesa (a reversal, or B2C to the payer)"
            description="The shop's M-Pesa sends the money; its code is filled in once sent"
            {...form.register('send')}
            disabled={pending}
          />
        )}
        {!sending && (
          <TextInput
            label={method === 'Mpesa' ? 'M-Pesa reversal code' : 'Reference (optional)'}
            description={
              method === 'Mpesa'
                ? 'The code on the M-Pesa reversal or refund message'
                : 'A note, e.g. who received the cash'
            }
            withAsterisk={method === 'Mpesa' && !sending}
            maxLength={REFUND_REFERENCE_MAX}
            {...form.register('reference')}
            error={e.reference?.message}
            disabled={pending}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Keep order
          </Button>
          <Button type="submit" color="red" loading={pending} disabled={pending}>
            Cancel and refund
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
