import { Anchor, Badge, Card, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  MPESA_EXPRESS_NAME,
  PAGE_SIZE,
  statusLabel,
  type Role,
  lineItemName,
} from '@spc/shared-contracts';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { Order } from '../api/get-orders';
import { OrderActions } from './order-actions';
import classes from './orders-table.module.css';

const STATUS_COLOR: Record<string, string> = {
  Pending: 'yellow',
  Processing: 'blue',
  InTransit: 'indigo',
  Delivered: 'teal',
  Completed: 'green',
  Cancelled: 'gray',
  Paid: 'green',
  Unfulfilled: 'gray',
  Fulfilled: 'green',
};

/** Which orders are ticked for a bulk action (staff only). */
export interface OrderSelection {
  selected: ReadonlySet<string>;
  toggle: (id: string) => void;
  /** Ticks (or unticks) every order shown. */
  setAll: (ids: string[], on: boolean) => void;
}

function customerName(order: Order): string {
  const placedBy = order.placedBy as { fullName?: string } | null | undefined;
  return order.customerName || placedBy?.fullName || order.guestInfo?.fullName || 'Guest';
}

function productNames(order: Order): string {
  return order.products
    .map((line) =>
      lineItemName({
        productName: line.product?.productName || line.productName || 'Unknown Product',
        unit: line.unit,
      }),
    )
    .join(', ');
}

/** A status as words ("In transit"), never upper-cased; `prefix` says which status it is. */
export function StatusBadge({ status, prefix }: { status: string; prefix?: string }) {
  return (
    <Badge
      color={STATUS_COLOR[status] ?? 'gray'}
      variant="light"
      tt="none"
      className={classes.badge}
    >
      {prefix ? `${prefix}: ${statusLabel(status)}` : statusLabel(status)}
    </Badge>
  );
}

function Payment({ order }: { order: Order }) {
  const details = order.paymentDetails as {
    transactionCode?: string;
    timePaid?: string;
    completedBy?: { fullName?: string };
  } | null;
  return (
    <Stack gap={2}>
      <StatusBadge status={order.paymentStatus} />
      {order.paymentMethod === 'Mpesa' && details?.transactionCode && (
        <Text size="xs" c="dimmed">
          M-Pesa {details.transactionCode}
          {details.timePaid ? ` · ${formatDateTime(details.timePaid)}` : ''}
        </Text>
      )}
      {order.paymentMethod === 'Mpesa' && details?.completedBy?.fullName === MPESA_EXPRESS_NAME && (
        <Text size="xs" c="dimmed">
          Paid by {MPESA_EXPRESS_NAME} (STK push)
        </Text>
      )}
      {order.paymentMethod === 'Cash' && (
        <Text size="xs" c="dimmed">
          Cash
        </Text>
      )}
    </Stack>
  );
}

function SelectBox({ order, selection }: { order: Order; selection: OrderSelection }) {
  return (
    <Checkbox
      aria-label={`Select order ${order.purchaseNumber}`}
      checked={selection.selected.has(order._id)}
      onChange={() => selection.toggle(order._id)}
    />
  );
}

function SelectAll({ orders, selection }: { orders: Order[]; selection: OrderSelection }) {
  const ids = orders.map((o) => o._id);
  const ticked = ids.filter((id) => selection.selected.has(id)).length;
  return (
    <Checkbox
      aria-label="Select all orders shown"
      checked={ticked > 0 && ticked === ids.length}
      indeterminate={ticked > 0 && ticked < ids.length}
      onChange={() => selection.setAll(ids, ticked < ids.length)}
    />
  );
}

interface OrdersTableProps {
  orders: Order[];
  page: number;
  role: Role;
  /** When given, each order gets a checkbox for the bulk actions. */
  selection?: OrderSelection;
}

/** One card per order: what the table shows, at phone width. */
function OrderCards({ orders, page, role, selection }: OrdersTableProps) {
  const showActions = role !== 'admin';
  return (
    <Stack gap="sm" data-testid="orders-cards">
      {selection && (
        <Group gap="xs">
          <SelectAll orders={orders} selection={selection} />
          <Text size="sm">Select all</Text>
        </Group>
      )}
      {orders.map((order, i) => (
        <Card key={order._id} withBorder padding="sm" data-testid="order-card">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Group gap="xs" wrap="nowrap">
              {selection && <SelectBox order={order} selection={selection} />}
              <div>
                <Text fw={700} size="sm">
                  {(page - 1) * PAGE_SIZE.orders + i + 1}.{' '}
                  <Anchor component={Link} to={paths.orderDetail(role, order._id)} inherit>
                    {order.purchaseNumber}
                  </Anchor>
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDate(order.orderDate)} · {customerName(order)}
                </Text>
              </div>
            </Group>
            {showActions && <OrderActions order={order} role={role} />}
          </Group>
          <Text size="sm" mt={6} lineClamp={2}>
            {productNames(order)}
          </Text>
          <Group gap="xs" mt={6} justify="space-between">
            <Group gap={6}>
              <StatusBadge status={order.orderStatus} />
              <StatusBadge status={order.paymentStatus} prefix="Payment" />
              <StatusBadge status={order.fulfillmentStatus} />
            </Group>
            <Text fw={600} size="sm" className={classes.nowrap}>
              {formatMoney(order.totalAmount, 'KSH')}
            </Text>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * The orders table; the actions column is hidden from admins. It fits the page at 1280 px (products
 * are cut to two lines, money and numbers never wrap) and becomes one card per order on a phone.
 */
export function OrdersTable(props: OrdersTableProps) {
  const { orders, page, role, selection } = props;
  const phone = useMediaQuery('(max-width: 48em)');
  if (phone) return <OrderCards {...props} />;
  const showActions = role !== 'admin';
  return (
    <Table.ScrollContainer minWidth={0}>
      <Table
        striped
        highlightOnHover
        verticalSpacing="xs"
        horizontalSpacing={6}
        fz="sm"
        className={classes.table}
      >
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th w={32}>
                <SelectAll orders={orders} selection={selection} />
              </Table.Th>
            )}
            <Table.Th>#</Table.Th>
            <Table.Th>Order Date</Table.Th>
            <Table.Th>Order Number</Table.Th>
            <Table.Th>Customer Name</Table.Th>
            <Table.Th>Products</Table.Th>
            <Table.Th>Payment Status</Table.Th>
            <Table.Th>Order Status</Table.Th>
            <Table.Th>Subtotal</Table.Th>
            <Table.Th>Fulfillment Status</Table.Th>
            {showActions && <Table.Th w={56}>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((order, i) => (
            <Table.Tr key={order._id}>
              {selection && (
                <Table.Td>
                  <SelectBox order={order} selection={selection} />
                </Table.Td>
              )}
              <Table.Td>{(page - 1) * PAGE_SIZE.orders + i + 1}</Table.Td>
              <Table.Td className={classes.nowrap}>{formatDate(order.orderDate)}</Table.Td>
              <Table.Td className={classes.nowrap}>
                <Anchor component={Link} to={paths.orderDetail(role, order._id)}>
                  {order.purchaseNumber}
                </Anchor>
              </Table.Td>
              <Table.Td className={classes.name}>{customerName(order)}</Table.Td>
              <Table.Td className={classes.products}>
                <Text size="sm" lineClamp={2} title={productNames(order)}>
                  {productNames(order)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Payment order={order} />
              </Table.Td>
              <Table.Td>
                <StatusBadge status={order.orderStatus} />
              </Table.Td>
              <Table.Td className={classes.nowrap}>{formatMoney(order.subtotal, 'KSH')}</Table.Td>
              <Table.Td>{statusLabel(order.fulfillmentStatus)}</Table.Td>
              {showActions && (
                <Table.Td>
                  <OrderActions order={order} role={role} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
