import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  bookingDepositSchema,
  formatDate,
  formatDateTime,
  formatMoney,
  type BookingDepositPayload,
} from '@spc/shared-contracts';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { BookingStateBadge } from '../../../components/booking-state-badge';
import { ConfirmModal } from '../../../components/confirm-modal';
import { paths } from '../../../config/paths';
import {
  getBatchesWithRoom,
  useMoveBooking,
  useRecordDeposit,
  useRefundBooking,
} from '../api/booking-actions';
import type { Order } from '../api/get-orders';

type Booking = NonNullable<Order['booking']>;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Group>
  );
}

/** Seedlings the order holds (quantity × the unit's seedlings, summed over its lines). */
export function bookedSeedlings(order: Order): number {
  return order.products.reduce((sum, l) => sum + l.quantity * (l.unit?.seedlings ?? 1), 0);
}

const PROBLEM: Record<string, string> = {
  failed: 'Its batch failed.',
  short: 'Its batch fell short of what was booked.',
};

/** Record deposit: the transaction code and the amount, prefilled with the deposit. */
export function DepositForm({
  deposit,
  pending,
  onSubmit,
}: {
  deposit: number;
  pending?: boolean;
  onSubmit: (values: BookingDepositPayload) => void;
}) {
  const form = useForm<BookingDepositPayload>({
    resolver: zodResolver(bookingDepositSchema(deposit)),
    defaultValues: { transactionCode: '', amount: deposit },
  });
  const e = form.formState.errors;
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Transaction code"
          description="The M-Pesa code, or the cash receipt number"
          error={e.transactionCode?.message}
          {...form.register('transactionCode')}
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
        <Button type="submit" loading={pending} disabled={pending}>
          Record deposit
        </Button>
      </Stack>
    </form>
  );
}

/** Move to another batch: the growing batches of the same product with room for this booking. */
function MoveForm({
  order,
  booking,
  onDone,
}: {
  order: Order;
  booking: Booking;
  onDone: () => void;
}) {
  const productId = order.products[0]?.product?._id ?? '';
  const seedlings = bookedSeedlings(order);
  const choices = useQuery({
    queryKey: ['batches', 'room', productId, booking.batchId],
    queryFn: () => getBatchesWithRoom(productId, booking.batchId),
    enabled: !!productId,
  });
  const move = useMoveBooking(order._id);
  const [batchId, setBatchId] = useState('');
  const fitting = (choices.data ?? []).filter((b) => b.available >= seedlings);
  if (choices.isPending) return <Text size="sm">Loading the batches…</Text>;
  if (choices.isError)
    return (
      <Text size="sm" c="red" role="alert">
        The batches could not be loaded.
      </Text>
    );
  if (fitting.length === 0)
    return (
      <Text size="sm">
        No growing batch of this product has room for {seedlings.toLocaleString('en-US')} seedlings.
        Start a new batch, or refund the deposit.
      </Text>
    );
  return (
    <Stack gap="sm">
      <NativeSelect
        label="Batch"
        description={`This booking needs ${seedlings.toLocaleString('en-US')} seedlings; its deposit stays paid.`}
        data={[
          { value: '', label: 'Choose a batch' },
          ...fitting.map((b) => ({
            value: b._id,
            label: `Ready ${formatDate(b.readyOn)} · ${b.available.toLocaleString('en-US')} available`,
          })),
        ]}
        value={batchId}
        onChange={(e) => setBatchId(e.currentTarget.value)}
      />
      <Button
        disabled={!batchId || move.isPending}
        loading={move.isPending}
        onClick={() => move.mutate(batchId, { onSuccess: onDone })}
      >
        Move booking
      </Button>
    </Stack>
  );
}

/**
 * A booking order's ready date, deposit (paid or due), balance and state, with what staff do next:
 * record the deposit, and for an Affected booking move it to another batch or refund the deposit.
 */
export function OrderBooking({ order, canAct }: { order: Order; canAct: boolean }) {
  const booking = order.booking;
  const [open, setOpen] = useState<'deposit' | 'move' | 'refund' | null>(null);
  const deposit = useRecordDeposit(order._id);
  const refund = useRefundBooking(order._id);
  if (!booking) return null;
  const close = () => setOpen(null);
  const money = (n: number) => formatMoney(n, 'KSH');
  return (
    <Card withBorder aria-label="Booking">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          Booking
        </Title>
        <BookingStateBadge state={booking.state} />
      </Group>
      <Stack gap={6}>
        <Fact label="Product">
          <Anchor component={Link} to={paths.batch(booking.batchId)}>
            {booking.productName}
          </Anchor>
        </Fact>
        <Fact label="Ready date">{formatDate(booking.readyOn)}</Fact>
        <Fact label={`Deposit (${booking.depositPercent} %)`}>
          {booking.depositPaidAt
            ? `${money(booking.deposit)} paid ${formatDateTime(booking.depositPaidAt)}`
            : `${money(booking.deposit)} due`}
        </Fact>
        <Fact label="Balance">
          {booking.balancePaidAt
            ? `${money(booking.balance)} paid ${formatDateTime(booking.balancePaidAt)}`
            : booking.balanceDueBy
              ? `${money(booking.balance)} due by ${formatDate(booking.balanceDueBy)}`
              : `${money(booking.balance)} due when ready`}
        </Fact>
        {booking.releaseDecision && (
          <Fact label="Released">
            {`${formatDateTime(booking.releasedAt)}: deposit ${booking.releaseDecision}`}
          </Fact>
        )}
      </Stack>
      {booking.state === 'Affected' && (
        <Alert color="red" variant="light" mt="sm" title="Affected booking">
          {PROBLEM[booking.problem ?? ''] ?? 'Its batch cannot supply it.'} Move it to another batch
          when the customer accepts, or refund the deposit.
        </Alert>
      )}
      {canAct && (booking.state === 'Deposit due' || booking.state === 'Affected') && (
        <Group gap="xs" mt="sm">
          {booking.state === 'Deposit due' && (
            <Button onClick={() => setOpen('deposit')}>Record deposit</Button>
          )}
          {booking.state === 'Affected' && (
            <>
              <Button onClick={() => setOpen('move')}>Move to another batch</Button>
              <Button color="red" variant="light" onClick={() => setOpen('refund')}>
                Refund deposit
              </Button>
            </>
          )}
        </Group>
      )}
      <Modal
        opened={open === 'deposit'}
        onClose={deposit.isPending ? () => undefined : close}
        title={`Record deposit · ${order.purchaseNumber}`}
        centered
      >
        <DepositForm
          deposit={booking.deposit}
          pending={deposit.isPending}
          onSubmit={(body) => deposit.mutate(body, { onSuccess: close })}
        />
      </Modal>
      <Modal
        opened={open === 'move'}
        onClose={close}
        title={`Move to another batch · ${order.purchaseNumber}`}
        centered
      >
        <MoveForm order={order} booking={booking} onDone={close} />
      </Modal>
      <ConfirmModal
        opened={open === 'refund'}
        onClose={close}
        onConfirm={() => refund.mutateAsync()}
        title="Refund deposit"
        message={`Refund the deposit of ${money(booking.deposit)} and cancel order ${order.purchaseNumber}? Its seedlings are released and the customer is told by SMS.`}
        confirmLabel="Refund deposit"
        cancelLabel="Keep the booking"
        closeAfterMs={1000}
      />
    </Card>
  );
}
