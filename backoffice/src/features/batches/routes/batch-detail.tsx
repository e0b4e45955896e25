import {
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatDate,
  formatDateTime,
  LIVE_BOOKING_STATES,
  type Role,
} from '@spc/shared-contracts';
import { useMediaQuery } from '@mantine/hooks';
import { errorCode } from '@spc/shared-contracts/web-client';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { BookingStateBadge } from '../../../components/booking-state-badge';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import {
  useBatch,
  useMarkBatchFailed,
  useMarkBatchReady,
  useRecordBatchLoss,
  type BatchBooking,
  type BatchDetail,
} from '../api/batches';
import { BatchLossForm, FailBatchModal, ReadyBatchModal } from '../components/batch-forms';
import { BatchStatusBadge } from '../components/batch-status-badge';

const count = (n: number) => n.toLocaleString('en-US');

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Group>
  );
}

/** Bookings that still hold seedlings of the batch (the ones failing or readiness affects). */
const LIVE = new Set<string>(LIVE_BOOKING_STATES);

function BatchActions({ batch }: { batch: BatchDetail }) {
  const [open, setOpen] = useState<'loss' | 'ready' | 'fail' | null>(null);
  const loss = useRecordBatchLoss(batch._id);
  const ready = useMarkBatchReady(batch._id);
  const fail = useMarkBatchFailed(batch._id);
  const close = () => setOpen(null);
  const live = batch.bookings.filter((b) => LIVE.has(b.state)).length;
  const left = batch.started - batch.lost;
  // "Sold out" is a growing batch with nothing left to book: it can still lose, ripen or fail.
  const growing = batch.status === 'Growing' || batch.status === 'Sold out';
  if (!growing)
    return (
      <Text size="sm" c="dimmed">
        {batch.status === 'Failed'
          ? `Marked failed ${formatDateTime(batch.failedAt)}.`
          : `Marked ready ${formatDateTime(batch.readyAt)}: its unbooked seedlings are in ready stock.`}
      </Text>
    );
  return (
    <>
      <Group gap="xs">
        <Button variant="light" onClick={() => setOpen('loss')}>
          Record loss
        </Button>
        <Button onClick={() => setOpen('ready')}>Mark ready</Button>
        <Button variant="light" color="red" onClick={() => setOpen('fail')}>
          Mark failed
        </Button>
      </Group>
      <Modal
        opened={open === 'loss'}
        onClose={loss.isPending ? () => undefined : close}
        title="Record a loss on this batch"
        centered
      >
        <BatchLossForm
          left={left}
          booked={batch.booked}
          pending={loss.isPending}
          onSubmit={(body) => loss.mutate(body, { onSuccess: close })}
        />
      </Modal>
      <ReadyBatchModal
        opened={open === 'ready'}
        unbooked={batch.available}
        bookings={live}
        pending={ready.isPending}
        onClose={close}
        onConfirm={() => ready.mutate(undefined, { onSettled: close })}
      />
      <FailBatchModal
        opened={open === 'fail'}
        bookings={live}
        pending={fail.isPending}
        onClose={close}
        onConfirm={(note) => fail.mutate(note, { onSettled: close })}
      />
    </>
  );
}

function BookingsTable({ bookings, role }: { bookings: BatchBooking[]; role: Role }) {
  return (
    <Table.ScrollContainer minWidth={620}>
      <Table striped verticalSpacing="xs" aria-label="Bookings in booking order">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Order</Table.Th>
            <Table.Th>Customer</Table.Th>
            <Table.Th ta="right">Seedlings</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Booked on</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {bookings.map((b, i) => (
            <Table.Tr key={b.orderId}>
              <Table.Td>{i + 1}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.orderDetail(role, b.orderId)}>
                  {b.purchaseNumber}
                </Anchor>
              </Table.Td>
              <Table.Td>{b.customer}</Table.Td>
              <Table.Td ta="right">{count(b.seedlings)}</Table.Td>
              <Table.Td>
                <BookingStateBadge state={b.state} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(b.placedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each booking is a card, in the same booking order. */
function BookingCards({ bookings, role }: { bookings: BatchBooking[]; role: Role }) {
  return (
    <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {bookings.map((b, i) => (
        <Card
          key={b.orderId}
          component="li"
          withBorder
          padding="sm"
          aria-label={`Booking ${i + 1}: ${b.purchaseNumber}`}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Anchor component={Link} to={paths.orderDetail(role, b.orderId)} fw={600}>
              {`${i + 1}. ${b.purchaseNumber}`}
            </Anchor>
            <BookingStateBadge state={b.state} />
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {b.customer} · {count(b.seedlings)} seedlings
          </Text>
          <Text size="sm" c="dimmed">
            Booked {formatDateTime(b.placedAt)}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

/** /manage/batches/:id: one batch, its bookings in booking order, and what staff do with it. */
export function BatchDetailRoute() {
  const { id = '' } = useParams();
  const role = useSessionRole() ?? 'staff';
  const wide = useMediaQuery('(min-width: 48em)', true);
  const query = useBatch(id);
  const back = (
    <Anchor component={Link} to={paths.manageBatches} size="sm">
      ← Batches
    </Anchor>
  );
  if (!query.data) {
    const missing =
      errorCode(query.error) === 'NOT_FOUND' || errorCode(query.error) === 'VALIDATION_FAILED';
    return (
      <Stack>
        {back}
        <ListState
          isLoading={query.isPending}
          isError={query.isError}
          isEmpty={false}
          emptyText=""
          errorText={missing ? 'No batch with this id' : BACKOFFICE_MESSAGES.listError}
        />
      </Stack>
    );
  }
  const batch = query.data.batch;
  return (
    <Stack>
      {back}
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {batch.productName}
          </Title>
          <Text size="sm" c="dimmed">
            Batch sown {formatDate(batch.sownOn)}, ready {formatDate(batch.readyOn)}
          </Text>
        </div>
        <BatchStatusBadge status={batch.status} />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={3} size="h4" mb="sm">
            Batch
          </Title>
          <Stack gap={6}>
            <Fact label="Sowing date">{formatDate(batch.sownOn)}</Fact>
            <Fact label="Ready date">{formatDate(batch.readyOn)}</Fact>
            <Fact label="Seedlings started">{count(batch.started)}</Fact>
            <Fact label="Lost">{count(batch.lost)}</Fact>
            <Fact label="Booked">{count(batch.booked)}</Fact>
            <Fact label="Available to book">{count(batch.available)}</Fact>
            <Fact label="In the batch now">{count(batch.quantity)}</Fact>
            <Fact label="Note">{batch.note}</Fact>
            <Anchor component={Link} to={paths.productBatches(batch.productId)} size="sm">
              All batches of this product
            </Anchor>
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={3} size="h4" mb="sm">
            Actions
          </Title>
          <BatchActions batch={batch} />
        </Card>
      </SimpleGrid>
      <Title order={3} size="h4">
        Bookings
      </Title>
      <ListState
        isLoading={false}
        isError={false}
        isEmpty={batch.bookings.length === 0}
        emptyText="No bookings on this batch yet."
      />
      {batch.bookings.length > 0 &&
        (wide ? (
          <BookingsTable bookings={batch.bookings} role={role} />
        ) : (
          <BookingCards bookings={batch.bookings} role={role} />
        ))}
      {(batch.orders ?? []).length > 0 && (
        <>
          <Title order={3} size="h4">
            Orders from quotations
          </Title>
          <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {(batch.orders ?? []).map((o) => (
              <Text key={o.orderId} component="li" size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Anchor component={Link} to={paths.orderDetail(role, o.orderId)}>
                  {o.purchaseNumber}
                </Anchor>{' '}
                · {o.customer} · {count(o.seedlings)} seedlings · {formatDateTime(o.placedAt)}
              </Text>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
