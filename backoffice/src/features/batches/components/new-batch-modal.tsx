import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Modal,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { BATCH_LIMITS, newBatchSchema, type NewBatchPayload } from '@spc/shared-contracts';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';

type NewBatchInput = z.input<typeof newBatchSchema>;

/**
 * "New batch": product, sowing date, ready date, seedlings started and a note. The API's rules are
 * checked as the user types (a ready date before the sowing date is refused at once).
 */
export function NewBatchModal({
  opened,
  onClose,
  pending,
  ...props
}: NewBatchFormProps & { opened: boolean; onClose: () => void }) {
  // The form lives inside the modal, so each opening starts afresh.
  return (
    <Modal opened={opened} onClose={pending ? () => undefined : onClose} title="New batch" centered>
      <NewBatchForm pending={pending} {...props} />
    </Modal>
  );
}

interface NewBatchFormProps {
  products: { value: string; label: string }[];
  /** The product to start with (the products page links to its batches). */
  productId?: string;
  pending?: boolean;
  onSubmit: (values: NewBatchPayload) => void;
}

export function NewBatchForm({ products, productId, pending, onSubmit }: NewBatchFormProps) {
  const form = useForm<NewBatchInput, unknown, NewBatchPayload>({
    resolver: zodResolver(newBatchSchema),
    mode: 'onChange',
    defaultValues: {
      productId: productId ?? '',
      sownOn: '',
      readyOn: '',
      started: undefined as unknown as number,
      note: '',
    },
  });
  const e = form.formState.errors;
  const submit = form.handleSubmit((values) => onSubmit(values));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <NativeSelect
          label="Product"
          data={[{ value: '', label: 'Choose a product' }, ...products]}
          error={e.productId?.message}
          {...form.register('productId')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Sowing date"
            type="date"
            error={e.sownOn?.message}
            {...form.register('sownOn', {
              // The ready date's rule depends on this one: check it again as this one changes.
              onChange: () => form.getValues('readyOn') && void form.trigger('readyOn'),
            })}
          />
          <TextInput
            label="Ready date"
            type="date"
            error={e.readyOn?.message}
            {...form.register('readyOn')}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="started"
          render={({ field }) => (
            <NumberInput
              label="Seedlings started"
              allowDecimal={false}
              thousandSeparator=","
              min={1}
              max={BATCH_LIMITS.maxStarted}
              value={(field.value as number | undefined) ?? ''}
              onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
              onBlur={field.onBlur}
              error={e.started?.message}
            />
          )}
        />
        <Textarea
          label="Note"
          autosize
          minRows={1}
          maxLength={BATCH_LIMITS.noteMaxLength}
          error={e.note?.message}
          {...form.register('note')}
        />
        <Button type="submit" loading={pending} disabled={pending}>
          Create batch
        </Button>
      </Stack>
    </form>
  );
}
