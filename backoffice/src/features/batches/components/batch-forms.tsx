import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import {
  BATCH_LIMITS,
  BATCH_FORM_MESSAGES,
  batchLossSchema,
  LOSS_REASON_WORDS,
  LOSS_REASONS,
  type BatchLossPayload,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';

type LossInput = z.input<typeof batchLossSchema>;

/**
 * Record loss on a batch: how many seedlings and a note. More than the batch still holds is refused
 * as the user types; losing booked seedlings makes the latest bookings "Affected" (the API's rule,
 * said before sending).
 */
export function BatchLossForm({
  left,
  booked,
  pending,
  onSubmit,
}: {
  /** Seedlings the batch still holds (started − lost). */
  left: number;
  booked: number;
  pending?: boolean;
  onSubmit: (values: BatchLossPayload) => void;
}) {
  const schema = batchLossSchema.refine((v) => v.quantity <= left, {
    path: ['quantity'],
    message: BATCH_FORM_MESSAGES.lossMoreThanLeft(left),
  });
  const form = useForm<LossInput, unknown, BatchLossPayload>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { quantity: undefined as unknown as number, reason: 'died', note: '' },
  });
  const quantity = useWatch({ control: form.control, name: 'quantity' });
  const e = form.formState.errors;
  const cutsBookings = typeof quantity === 'number' && left - quantity < booked;
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Stack gap="sm">
        <Controller
          control={form.control}
          name="quantity"
          render={({ field }) => (
            <NumberInput
              label="Seedlings lost"
              allowDecimal={false}
              thousandSeparator=","
              min={1}
              value={(field.value as number | undefined) ?? ''}
              onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
              onBlur={field.onBlur}
              error={e.quantity?.message}
            />
          )}
        />
        <NativeSelect
          label="Reason"
          data={LOSS_REASONS.map((r) => ({ value: r, label: LOSS_REASON_WORDS[r] }))}
          error={e.reason?.message}
          {...form.register('reason')}
        />
        <Textarea
          label="Note"
          autosize
          minRows={1}
          maxLength={BATCH_LIMITS.noteMaxLength}
          error={e.note?.message}
          {...form.register('note')}
        />
        {cutsBookings && !e.quantity && (
          <Text size="sm" c="orange.8" role="status">
            Fewer seedlings than booked would be left: the latest bookings that no longer fit become
            Affected and their customers are told by SMS.
          </Text>
        )}
        <Button type="submit" loading={pending} disabled={pending}>
          Record loss
        </Button>
      </Stack>
    </form>
  );
}

/**
 * Mark failed: destructive, so the button is red; a note says why. Every live booking becomes
 * Affected and its customer is told by SMS.
 */
export function FailBatchModal({
  opened,
  bookings,
  pending,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  bookings: number;
  pending?: boolean;
  onClose: () => void;
  onConfirm: (note: string) => void;
}) {
  const [note, setNote] = useState('');
  return (
    <Modal
      opened={opened}
      onClose={pending ? () => undefined : onClose}
      title="Mark this batch failed?"
      centered
    >
      <Stack gap="sm">
        <Text size="sm">
          {bookings === 0
            ? 'Its remaining seedlings are recorded as lost. This cannot be undone.'
            : `Its remaining seedlings are recorded as lost and ${bookings === 1 ? 'the 1 booking' : `all ${bookings} bookings`} on it become Affected: each customer is told by SMS and is moved to another batch or refunded. This cannot be undone.`}
        </Text>
        <Textarea
          label="What happened"
          autosize
          minRows={2}
          maxLength={BATCH_LIMITS.noteMaxLength}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Keep it growing
          </Button>
          <Button color="red" loading={pending} onClick={() => onConfirm(note.trim())}>
            Mark failed
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Mark ready: not destructive, so the plain colour; says what follows. */
export function ReadyBatchModal({
  opened,
  unbooked,
  bookings,
  pending,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  unbooked: number;
  bookings: number;
  pending?: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={pending ? () => undefined : onClose}
      title="Mark this batch ready?"
      centered
    >
      <Stack gap="sm">
        <Text size="sm">
          {`${unbooked.toLocaleString('en-US')} unbooked seedlings go into ready stock.`}{' '}
          {bookings === 0
            ? 'No bookings wait on this batch.'
            : `Customers with a paid deposit (${bookings === 1 ? '1 booking' : `${bookings} bookings`} in all) are told by SMS and e-mail that their balance is due.`}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Not yet
          </Button>
          <Button loading={pending} onClick={onConfirm}>
            Mark ready
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
