import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, NativeSelect, NumberInput, Stack, Textarea, Title } from '@mantine/core';
import {
  LOSS_REASONS,
  LOSS_REASON_WORDS,
  recordCountSchema,
  recordLossSchema,
  STOCK_LIMITS,
  type RecordCountPayload,
  type RecordLossPayload,
} from '@spc/shared-contracts';
import { Controller, useForm } from 'react-hook-form';
import { useRecordCount, useRecordLoss, useSetThreshold } from '../api/stock';

const wholeOrUndefined = (v: string | number) => (typeof v === 'number' ? v : undefined);

/** Record a loss: how many, why (died, damaged, given away), a note. */
export function LossForm({ productId }: { productId: string }) {
  const mutation = useRecordLoss(productId);
  const form = useForm<RecordLossPayload>({
    resolver: zodResolver(recordLossSchema),
    defaultValues: { quantity: undefined, reason: 'died', note: '' },
  });
  const onSubmit = form.handleSubmit((body) =>
    mutation.mutate(body, { onSuccess: () => form.reset() }),
  );
  const { errors } = form.formState;
  return (
    <Card withBorder component="section" aria-label="Record a loss">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="xs">
          <Title order={4}>Record a loss</Title>
          <Controller
            control={form.control}
            name="quantity"
            render={({ field }) => (
              <NumberInput
                label="Seedlings lost"
                allowDecimal={false}
                min={1}
                value={(field.value as number | undefined) ?? ''}
                onChange={(v) => field.onChange(wholeOrUndefined(v))}
                error={errors.quantity?.message}
              />
            )}
          />
          <NativeSelect
            label="Reason"
            data={LOSS_REASONS.map((r) => ({ value: r, label: LOSS_REASON_WORDS[r] }))}
            error={errors.reason?.message}
            {...form.register('reason')}
          />
          <Textarea
            label="Note"
            maxLength={STOCK_LIMITS.noteMaxLength}
            autosize
            minRows={1}
            error={errors.note?.message}
            {...form.register('note')}
          />
          <Button type="submit" loading={mutation.isPending} disabled={mutation.isPending}>
            Record loss
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** Record a count: the quantity counted in the shed becomes the stock. */
export function CountForm({ productId }: { productId: string }) {
  const mutation = useRecordCount(productId);
  const form = useForm<RecordCountPayload>({
    resolver: zodResolver(recordCountSchema),
    defaultValues: { countedQuantity: undefined, note: '' },
  });
  const onSubmit = form.handleSubmit((body) =>
    mutation.mutate(body, { onSuccess: () => form.reset() }),
  );
  const { errors } = form.formState;
  return (
    <Card withBorder component="section" aria-label="Record a count">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="xs">
          <Title order={4}>Record a count</Title>
          <Controller
            control={form.control}
            name="countedQuantity"
            render={({ field }) => (
              <NumberInput
                label="Counted quantity"
                allowDecimal={false}
                min={0}
                value={(field.value as number | undefined) ?? ''}
                onChange={(v) => field.onChange(wholeOrUndefined(v))}
                error={errors.countedQuantity?.message}
              />
            )}
          />
          <Textarea
            label="Count note"
            maxLength={STOCK_LIMITS.noteMaxLength}
            autosize
            minRows={1}
            error={errors.note?.message}
            {...form.register('note')}
          />
          <Button type="submit" loading={mutation.isPending} disabled={mutation.isPending}>
            Record count
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

/** The product's own low-stock threshold; empty uses the shop's default. */
export function ThresholdForm({
  productId,
  current,
  defaultThreshold,
}: {
  productId: string;
  current: number | null;
  defaultThreshold: number;
}) {
  const mutation = useSetThreshold(productId);
  const form = useForm<{ threshold: number | undefined }>({
    values: { threshold: current ?? undefined },
  });
  const onSubmit = form.handleSubmit(({ threshold }) => mutation.mutate(threshold ?? null));
  return (
    <Card withBorder component="section" aria-label="Low-stock threshold">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="xs">
          <Title order={4}>Low-stock threshold</Title>
          <Controller
            control={form.control}
            name="threshold"
            render={({ field }) => (
              <NumberInput
                label="Low at or below"
                description={`Empty: the shop's default (${defaultThreshold})`}
                allowDecimal={false}
                min={0}
                value={field.value ?? ''}
                onChange={(v) => field.onChange(wholeOrUndefined(v))}
              />
            )}
          />
          <Button
            type="submit"
            variant="light"
            loading={mutation.isPending}
            disabled={mutation.isPending}
          >
            Save threshold
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
