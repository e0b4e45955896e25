import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatMoney,
  TILL_MESSAGES,
  tillRefundSchema,
  tillVoidSchema,
  type TillSaleView,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useSessionStore } from '../../../lib/session-store';
import { useApprovers } from '../api/approvers';
import { useRefundSale, useVoidSale } from '../api/sales';
import { StaffSelect, TillPinInput } from './till-pin-fields';

export type ApprovalKind = 'void' | 'refund';

interface ApprovalValues {
  approverId: string;
  pin: string;
  reason: string;
  amount?: number;
}

/** What is left of a sale to give back. */
export const leftOfSale = (sale: TillSaleView) => sale.total - sale.refunded;

/**
 * A void or a refund of a sale, approved by a second staff member with their till PIN, and why;
 * a refund's amount is at most what is left. A wrong PIN or a locked one is said in the API's words
 * under the form (and in a toast), and the dialog stays open to try again.
 */
export function ApprovalDialog({
  kind,
  sale,
  onClose,
}: {
  kind: ApprovalKind;
  sale: TillSaleView;
  onClose: () => void;
}) {
  const me = useSessionStore((s) => s.user?._id);
  const approvers = useApprovers();
  const left = leftOfSale(sale);
  const schema = useMemo(
    () => (kind === 'refund' ? tillRefundSchema(left) : tillVoidSchema()),
    [kind, left],
  );
  const form = useForm<ApprovalValues>({
    resolver: zodResolver(schema) as never,
    defaultValues: {
      approverId: '',
      pin: '',
      reason: '',
      ...(kind === 'refund' ? { amount: left } : {}),
    },
  });
  const voidSale = useVoidSale(sale.orderId);
  const refund = useRefundSale(sale.orderId);
  const mutation = kind === 'void' ? voidSale : refund;
  const submit = form.handleSubmit((values) => {
    const done = { onSuccess: onClose, onError: () => form.setValue('pin', '') };
    if (kind === 'void') voidSale.mutate(values, done);
    else refund.mutate({ ...values, amount: values.amount ?? 0 }, done);
  });
  const e = form.formState.errors;
  const title =
    kind === 'void' ? `Void sale ${sale.purchaseNumber}` : `Refund sale ${sale.purchaseNumber}`;
  const choices = (approvers.data ?? []).filter((a) => a.value !== me);
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack>
          <Text size="sm">
            {TILL_MESSAGES.secondPerson}.{' '}
            {kind === 'void'
              ? `The whole sale (${formatMoney(sale.total)}) is cancelled and its seedlings go back to stock.`
              : `Up to ${formatMoney(left)} can be given back.`}
          </Text>
          <Controller
            control={form.control}
            name="approverId"
            render={({ field }) => (
              <StaffSelect
                size="lg"
                label="Approved by"
                staff={{
                  data: choices,
                  isPending: approvers.isPending,
                  isError: approvers.isError,
                }}
                value={field.value}
                onChange={field.onChange}
                error={e.approverId?.message}
                disabled={mutation.isPending}
              />
            )}
          />
          <TillPinInput
            size="lg"
            label="Their till PIN"
            {...form.register('pin')}
            error={e.pin?.message}
            disabled={mutation.isPending}
          />
          {kind === 'refund' && (
            <Controller
              control={form.control}
              name="amount"
              render={({ field }) => (
                <NumberInput
                  size="lg"
                  label="Amount to give back"
                  prefix="KES "
                  thousandSeparator=","
                  allowDecimal={false}
                  allowNegative={false}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                  error={e.amount?.message}
                  disabled={mutation.isPending}
                />
              )}
            />
          )}
          <Textarea
            size="lg"
            label="Reason"
            autosize
            minRows={2}
            {...form.register('reason')}
            error={e.reason?.message}
            disabled={mutation.isPending}
          />
          {mutation.isError && (
            <Alert color="red" role="alert" title={kind === 'void' ? 'Not voided' : 'Not refunded'}>
              {errorMessage(mutation.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button size="lg" variant="default" onClick={onClose} disabled={mutation.isPending}>
              Keep the sale
            </Button>
            <Button size="lg" color="red" type="submit" loading={mutation.isPending}>
              {kind === 'void' ? 'Void sale' : 'Refund'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
