import { Anchor, Badge, Card, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatDate, formatMoney, type Role } from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BookingStateBadge } from '../../../components/booking-state-badge';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import {
  BOOKING_TAB_LABELS,
  BOOKING_TABS,
  useBookingCounts,
  useBookingQueue,
  type BookingOrder,
  type BookingTab,
} from '../api/bookings';

const EMPTY: Record<BookingTab, string> = {
  deposits: 'No deposits to confirm.',
  balances: 'No balances due this week.',
  dispatch: 'No paid bookings wait for dispatch.',
  affected: 'No bookings are affected by a failed or short batch.',
};

/** What a row shows of a booking order: money due reads as "paid" once it is. */
function deposit(o: BookingOrder) {
  const b = o.booking!;
  return `${formatMoney(b.deposit, 'KSH')} ${b.depositPaidAt ? 'paid' : 'due'}`;
}
function balance(o: BookingOrder) {
  const b = o.booking!;
  return `${formatMoney(b.balance, 'KSH')} ${b.balancePaidAt ? 'paid' : 'due'}`;
}

function QueueTable({ orders, role }: { orders: BookingOrder[]; role: Role }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped verticalSpacing="xs" aria-label="Bookings">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Order</Table.Th>
            <Table.Th>Customer</Table.Th>
            <Table.Th>Product</Table.Th>
            <Table.Th>Ready</Table.Th>
            <Table.Th>Deposit</Table.Th>
            <Table.Th>Balance</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o._id}>
              <Table.Td>
                <Anchor component={Link} to={paths.orderDetail(role, o._id)}>
                  {o.purchaseNumber}
                </Anchor>
              </Table.Td>
              <Table.Td>{o.customerName}</Table.Td>
              <Table.Td>{o.booking!.productName}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(o.booking!.readyOn)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{deposit(o)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{balance(o)}</Table.Td>
              <Table.Td>
                <BookingStateBadge state={o.booking!.state} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each booking is a card: nothing scrolls sideways. */
function QueueCards({ orders, role }: { orders: BookingOrder[]; role: Role }) {
  return (
    <Stack gap="xs" aria-label="Bookings">
      {orders.map((o) => (
        <Card
          key={o._id}
          withBorder
          padding="sm"
          component="article"
          aria-label={`Booking ${o.purchaseNumber}`}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Anchor component={Link} to={paths.orderDetail(role, o._id)} fw={600}>
              {o.purchaseNumber}
            </Anchor>
            <BookingStateBadge state={o.booking!.state} />
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {o.customerName} · {o.booking!.productName}
          </Text>
          <Text size="sm" c="dimmed">
            Ready {formatDate(o.booking!.readyOn)}
          </Text>
          <Text size="sm">Deposit: {deposit(o)}</Text>
          <Text size="sm">Balance: {balance(o)}</Text>
        </Card>
      ))}
    </Stack>
  );
}

/** /manage/bookings: the bookings queue, one tab per kind of work, each with its count. */
export function BookingsRoute() {
  const role = useSessionRole() ?? 'staff';
  const wide = useMediaQuery('(min-width: 48em)', true);
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as BookingTab | null;
  const tab: BookingTab = asked && BOOKING_TABS.includes(asked) ? asked : 'deposits';
  const [page, setPage] = useState(1);
  const counts = useBookingCounts();
  const query = useBookingQueue(tab, page);
  const orders = (query.data?.orders ?? []).filter((o) => o.booking);
  return (
    <Stack>
      <Title order={2}>Bookings</Title>
      <Tabs
        value={tab}
        onChange={(v) => {
          setParams(v && v !== 'deposits' ? { tab: v } : {}, { replace: true });
          setPage(1);
        }}
      >
        <Tabs.List aria-label="Bookings queue">
          {BOOKING_TABS.map((t) => {
            const n = counts.data?.[t];
            return (
              <Tabs.Tab
                key={t}
                value={t}
                data-testid={`bookings-${t}`}
                rightSection={
                  <Badge
                    size="sm"
                    variant={t === tab ? 'filled' : 'light'}
                    color={counts.isError ? 'red' : t === 'affected' && n ? 'red' : 'green'}
                    aria-label={`${n ?? (counts.isError ? 'unknown' : 'loading')} bookings`}
                  >
                    {n ?? (counts.isError ? '—' : '…')}
                  </Badge>
                }
              >
                {BOOKING_TAB_LABELS[t]}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        {BOOKING_TABS.map((t) => (
          <Tabs.Panel key={t} value={t}>
            {null}
          </Tabs.Panel>
        ))}
      </Tabs>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && orders.length === 0}
        emptyText={EMPTY[tab]}
      />
      {orders.length > 0 &&
        (wide ? (
          <QueueTable orders={orders} role={role} />
        ) : (
          <QueueCards orders={orders} role={role} />
        ))}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}
