import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES, formatMoney } from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState } from 'react';
import {
  balanceOf,
  useBookingsToCollect,
  useCollectBooking,
  type BookingToCollect,
} from '../api/bookings-to-collect';
import { PaymentPanel } from './payment-panel';
import { SaleDone } from './sale-done';
import { emptyPayState, paymentProblem, paymentsFor, type PayState } from './till-payment';
import { TillQueryState } from './till-query-state';

const codeOnly = (): PayState => ({ ...emptyPayState(), mpesaKind: 'mpesa-code' });

/** A booking's order matched by its purchase number or the buyer's name. */
function matches(order: BookingToCollect, search: string): boolean {
  const text = `${order.purchaseNumber} ${order.customerName}`.toLowerCase();
  return text.includes(search.trim().toLowerCase());
}

function BookingCard({ order, onPick }: { order: BookingToCollect; onPick: () => void }) {
  return (
    <Card withBorder padding="sm" aria-label={`Booking ${order.purchaseNumber}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text fw={700}>{order.purchaseNumber}</Text>
          <Text size="sm">{order.customerName}</Text>
          <Text size="sm" c="dimmed">
            {order.products.map((l) => `${l.quantity} × ${l.productName}`).join(', ')}
          </Text>
        </div>
        <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(balanceOf(order))} due
        </Text>
      </Group>
      <Button mt="xs" size="md" fullWidth onClick={onPick}>
        Collect
      </Button>
    </Card>
  );
}

/** The balance of one booking taken (cash, an M-Pesa code or both) and the seedlings handed over. */
function CollectOne({
  order,
  sessionId,
  onBack,
  onDone,
}: {
  order: BookingToCollect;
  sessionId: string;
  onBack: () => void;
  onDone: (orderId: string) => void;
}) {
  const [pay, setPay] = useState<PayState>(codeOnly);
  const collect = useCollectBooking();
  const due = balanceOf(order);
  const problem = paymentProblem(pay, due);
  const send = () =>
    collect.mutate(
      { orderId: order._id, sessionId, payments: paymentsFor(pay, due) },
      { onSuccess: ({ sale }) => onDone(sale.orderId) },
    );
  return (
    <Card withBorder padding="md" aria-label={`Collect ${order.purchaseNumber}`}>
      <Stack>
        <Title order={3}>Collect {order.purchaseNumber}</Title>
        <Text>
          {order.customerName} pays the balance, {formatMoney(due)}, and takes the seedlings.
        </Text>
        <PaymentPanel
          total={due}
          pay={pay}
          onChange={setPay}
          disabled={collect.isPending}
          withPrompt={false}
        />
        {collect.isError && (
          <Alert color="red" role="alert" title="The booking was not collected">
            {errorMessage(collect.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Alert>
        )}
        {problem && <Text c="red">{problem}</Text>}
        <Group grow>
          <Button size="lg" variant="default" onClick={onBack} disabled={collect.isPending}>
            Back
          </Button>
          <Button size="lg" onClick={send} disabled={!!problem} loading={collect.isPending}>
            Take {formatMoney(due)} and hand over
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Collecting a booking at the gate: the bookings whose batch is ready and balance is due, found by
 * number or name; the balance taken in this session and the seedlings handed over in one step.
 */
export function CollectBooking({ sessionId }: { sessionId: string }) {
  const query = useBookingsToCollect();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<BookingToCollect | null>(null);
  const [doneId, setDoneId] = useState<string | null>(null);
  if (doneId)
    return (
      <SaleDone
        orderId={doneId}
        onNewSale={() => {
          setDoneId(null);
          setPicked(null);
        }}
      />
    );
  if (picked)
    return (
      <CollectOne
        order={picked}
        sessionId={sessionId}
        onBack={() => setPicked(null)}
        onDone={setDoneId}
      />
    );
  const orders = (query.data ?? []).filter((o) => matches(o, search));
  return (
    <Stack>
      <TextInput
        size="lg"
        label="Find a booking"
        placeholder="Its number or the buyer’s name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <TillQueryState
        query={query}
        isEmpty={orders.length === 0}
        emptyText="No bookings ready to collect."
        errorTitle="The bookings could not be loaded"
      />
      {orders.map((order) => (
        <BookingCard key={order._id} order={order} onPick={() => setPicked(order)} />
      ))}
    </Stack>
  );
}
