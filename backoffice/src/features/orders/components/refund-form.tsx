import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatMoney,
  moneyCodeText,
  staffMoneyHowText,
  PAYMENT_METHODS,
  REFUND_REFERENCE_MAX,
  refundFormSchema,
  type RefundForm,
  type RefundFormInput,
  type OrderMoney,
} from '@spc/shared-contracts';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useOrderDetail } from '../api/get-order-detail';
import type { Order } from '../api/get-orders';

const METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  Cash: 'Cash',
  Mpesa: 'M-Pesa',
};

/** The incoming entries not yet given back in full: "M-Pesa at the desk SGR4T5Y6U7, Cash". */
function receivedText(money: OrderMoney): string {
  return money.entries
    .filter((e) => e.direction === 'in' && e.amount > e.returned)
    .map((e) => {
      const code = moneyCodeText(e);
      return `${staffMoneyHowText(e)}${code ? ` ${code}` : ''}`;
    })
    .join(', ');
}

/** The way most of the money came: M-Pesa when any of it did, else cash. */
function methodOf(money: OrderMoney): RefundFormInput['method'] | '' {
  const ins = money.entries.filter((e) => e.direction === 'in');
  if (ins.some((e) => e.kind !== 'cash')) return 'Mpesa';
  return ins.length ? 'Cash' : '';
}

/**
 * Cancel and refund: an order with money on it is cancelled only with its refund, given back by
 * cash or M-Pesa, for what was received and not yet given back (the ledger's `refundable`,
 * prefilled), with the M-Pesa reversal code (or, for cash, an optional note).
 */
export function RefundFormFields({
  order,
  money,
  pending,
  onSubmit,
  onCancel,
}: {
  order: Order;
  money: OrderMoney;
  pending?: boolean;
  onSubmit: (values: RefundForm) => void;
  onCancel: () => void;
}) {
  const paid = money.refundable;
  const schema = useMemo(() => refundFormSchema(paid), [paid]);
  const form = useForm<RefundFormInput, unknown, RefundForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      method: (order.paymentMethod ?? methodOf(money)) as RefundFormInput['method'],
      amount: paid,
      reference: '',
      send: false,
    },
  });
  const method = useWatch({ control: form.control, name: 'method' });
  const send = useWatch({ control: form.control, name: 'send' });
  const sending = method === 'Mpesa' && !!send;
  const e = form.formState.errors;
  const how = receivedText(money);
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Stack>
        <Alert
          color="yellow"
          title={order.paymentStatus === 'Paid' ? 'This order is paid' : 'This order is part-paid'}
        >
          {`${formatMoney(paid, 'KSH')} was received${how ? ` (${how})` : ''} and not given back. Cancelling the order gives it back: record the refund below.`}
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
              description="What was received and not given back, in full"
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
            description="The shop's M-Pesa sends it only to the numbers that paid; its code is filled in once sent. A payment typed at the desk can only be reversed whole."
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

/**
 * The cancel-and-refund dialog's body: the order's money is read from its ledger (the detail the
 * order page has already loaded, or loaded now from the orders list), then the refund form for
 * what may be given back. When nothing is left to give back, a plain cancellation.
 */
export function CancelAndRefund({
  order,
  pending,
  onSubmit,
  onCancel,
}: {
  order: Order;
  pending?: boolean;
  /** The refund, or null: the order is cancelled without one (nothing left to give back). */
  onSubmit: (values: RefundForm | null) => void;
  onCancel: () => void;
}) {
  const detail = useOrderDetail(order._id);
  if (detail.isPending)
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">Reading what was received…</Text>
      </Group>
    );
  if (detail.isError)
    return (
      <Stack>
        <Alert color="red" role="alert" title="What was received could not be read">
          {errorMessage(detail.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Keep order
          </Button>
          <Button loading={detail.isFetching} onClick={() => void detail.refetch()}>
            Try again
          </Button>
        </Group>
      </Stack>
    );
  const { money } = detail.data;
  if (money.refundable <= 0)
    return (
      <Stack>
        <Text size="sm">
          {money.received > 0
            ? `The ${formatMoney(money.received, 'KSH')} received was given back already: the order is cancelled without a refund.`
            : 'Nothing was received on this order: it is cancelled without a refund.'}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Keep order
          </Button>
          <Button color="red" loading={pending} disabled={pending} onClick={() => onSubmit(null)}>
            Cancel order
          </Button>
        </Group>
      </Stack>
    );
  return (
    <RefundFormFields
      order={order}
      money={money}
      pending={pending}
      onSubmit={onSubmit}
      onCancel={onCancel}
    />
  );
}
