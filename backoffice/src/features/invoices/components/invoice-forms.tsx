import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  CREDIT_NOTE_REASON_LABELS,
  CREDIT_NOTE_REASONS,
  formatMoney,
  INVOICE_LIMITS,
  INVOICE_MESSAGES as M,
  shopToday,
  type CreditNoteReason,
  type InvoiceView,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState } from 'react';
import { Controller, useForm, type Control, type FieldValues, type Path } from 'react-hook-form';
import {
  useIssueCreditNote,
  useRecordBankPayment,
  useRecordWithholding,
} from '../api/settle-invoice';

const money = (n: number) => formatMoney(n, 'KES');
const whole = (v: number | undefined) =>
  (typeof v === 'number' && Number.isInteger(v) && v >= 1) || M.amountWhole;

/** The share of the total a public body withholds as tax (2 %), in whole shillings. */
export const withholdingOf = (total: number) => Math.round(total * 0.02);

/** A whole-shilling amount, its rules checked with the form's others. */
function AmountInput<T extends FieldValues>({
  control,
  name,
  disabled,
  validate,
}: {
  control: Control<T>;
  name: Path<T>;
  disabled: boolean;
  validate: (v: number | undefined) => true | string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      rules={{ validate }}
      render={({ field, fieldState }) => (
        <NumberInput
          label="Amount (KES)"
          thousandSeparator=","
          allowDecimal={false}
          allowNegative={false}
          min={1}
          value={(field.value as number | undefined) ?? ''}
          onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
          disabled={disabled}
        />
      )}
    />
  );
}

/** Where the API's refusal shows, under the form that was sent. */
function Refusal({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {errorMessage(error, BACKOFFICE_MESSAGES.somethingWentWrong)}
    </Alert>
  );
}

interface PaymentValues {
  amount: number | undefined;
  reference: string;
  paidOn: string;
  excess: boolean;
}

/** A bank transfer the organisation made: its amount, the bank's reference and the day. */
export function BankPaymentForm({ invoice }: { invoice: InvoiceView }) {
  const record = useRecordBankPayment(invoice.id);
  const [refusal, setRefusal] = useState<unknown>(null);
  const today = shopToday();
  const form = useForm<PaymentValues>({
    defaultValues: { amount: undefined, reference: '', paidOn: today, excess: false },
  });
  const pending = record.isPending;
  const e = form.formState.errors;
  const submit = form.handleSubmit((v) => {
    setRefusal(null);
    record.mutate(
      {
        amount: v.amount!,
        reference: v.reference.trim(),
        paidOn: v.paidOn,
        ...(v.excess ? { excess: true } : {}),
      },
      {
        onSuccess: () => form.reset({ ...form.getValues(), amount: undefined, reference: '' }),
        onError: setRefusal,
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Record a bank payment">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <AmountInput
            control={form.control}
            name="amount"
            disabled={pending}
            validate={(v) => {
              const ok = whole(v);
              if (ok !== true) return ok;
              return v! <= invoice.balance || form.getValues('excess')
                ? true
                : M.aboveBalance(money(invoice.balance));
            }}
          />
          <TextInput
            label="Bank reference"
            maxLength={INVOICE_LIMITS.reference}
            autoComplete="off"
            disabled={pending}
            error={e.reference?.message}
            {...form.register('reference', {
              validate: (v) => v.trim().length > 0 || M.referenceRequired,
            })}
          />
          <TextInput
            type="date"
            label="Paid on"
            max={today}
            disabled={pending}
            error={e.paidOn?.message}
            {...form.register('paidOn', {
              validate: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && v <= today) || M.paidOnInvalid,
            })}
          />
        </SimpleGrid>
        <Checkbox
          label="Part of it is an excess"
          description={`Paid above what the invoice owes (${money(invoice.balance)}): the rest is kept as an excess`}
          disabled={pending}
          {...form.register('excess', { onChange: () => void form.trigger('amount') })}
        />
        <Refusal error={refusal} />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={pending}>
            Record payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface WithholdingValues {
  amount: number | undefined;
  certificate: string;
}

/** Tax a public body withheld from what it pays, by its withholding certificate. */
export function WithholdingForm({ invoice }: { invoice: InvoiceView }) {
  const record = useRecordWithholding(invoice.id);
  const [refusal, setRefusal] = useState<unknown>(null);
  const form = useForm<WithholdingValues>({
    defaultValues: { amount: undefined, certificate: '' },
  });
  const pending = record.isPending;
  const e = form.formState.errors;
  const submit = form.handleSubmit((v) => {
    setRefusal(null);
    record.mutate(
      { amount: v.amount!, certificate: v.certificate.trim() },
      { onSuccess: () => form.reset(), onError: setRefusal },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Record tax withheld">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <div style={{ flex: 1, minWidth: 0 }}>
              <AmountInput
                control={form.control}
                name="amount"
                disabled={pending}
                validate={(v) => {
                  const ok = whole(v);
                  if (ok !== true) return ok;
                  return v! <= invoice.balance || M.withholdingAboveBalance(money(invoice.balance));
                }}
              />
            </div>
            <Button
              variant="default"
              disabled={pending}
              title={`2 % of the invoice total (${money(invoice.total)})`}
              onClick={() =>
                form.setValue('amount', withholdingOf(invoice.total), {
                  shouldDirty: true,
                  shouldValidate: true,
                })
              }
            >
              2 %
            </Button>
          </Group>
          <TextInput
            label="Certificate number"
            maxLength={INVOICE_LIMITS.certificate}
            autoComplete="off"
            disabled={pending}
            error={e.certificate?.message}
            {...form.register('certificate', {
              validate: (v) => v.trim().length > 0 || M.certificateRequired,
            })}
          />
        </SimpleGrid>
        <Refusal error={refusal} />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={pending}>
            Record tax withheld
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface CreditNoteValues {
  reason: CreditNoteReason | '';
  amount: number | undefined;
  note: string;
}

/** What is still creditable on an invoice: its total less the credit notes before. */
export const leftToCredit = (invoice: InvoiceView) => Math.max(0, invoice.total - invoice.credited);

/** A credit note: a short delivery, seedlings returned, a price correction. */
export function CreditNoteForm({ invoice }: { invoice: InvoiceView }) {
  const issue = useIssueCreditNote(invoice.id);
  const [refusal, setRefusal] = useState<unknown>(null);
  const form = useForm<CreditNoteValues>({
    defaultValues: { reason: '', amount: undefined, note: '' },
  });
  const pending = issue.isPending;
  const e = form.formState.errors;
  const left = leftToCredit(invoice);
  const submit = form.handleSubmit((v) => {
    setRefusal(null);
    issue.mutate(
      { reason: v.reason as CreditNoteReason, amount: v.amount!, note: v.note.trim() },
      { onSuccess: () => form.reset(), onError: setRefusal },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Issue a credit note">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label="Reason"
            data={[
              { value: '', label: 'Pick a reason' },
              ...CREDIT_NOTE_REASONS.map((r) => ({
                value: r,
                label: CREDIT_NOTE_REASON_LABELS[r],
              })),
            ]}
            disabled={pending}
            error={e.reason?.message}
            {...form.register('reason', { validate: (v) => v !== '' || M.reasonInvalid })}
          />
          <AmountInput
            control={form.control}
            name="amount"
            disabled={pending}
            validate={(v) => {
              const ok = whole(v);
              if (ok !== true) return ok;
              return v! <= left || M.creditAboveInvoice(money(left));
            }}
          />
        </SimpleGrid>
        <Textarea
          label="Note"
          description="Why it is given: it is printed on the credit note"
          maxLength={INVOICE_LIMITS.note}
          autosize
          minRows={2}
          disabled={pending}
          error={e.note?.message}
          {...form.register('note', { validate: (v) => v.trim().length > 0 || M.noteRequired })}
        />
        <Refusal error={refusal} />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={pending}>
            Issue credit note
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
