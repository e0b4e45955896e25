import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  MPESA_EXPRESS_NAME,
  PAGE_SIZE,
  type Role,
} from '@spc/shared-contracts';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { Order } from '../api/get-orders';
import { OrderActions } from './order-actions';

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

function customerName(order: Order): string {
  const placedBy = order.placedBy as { fullName?: string } | null | undefined;
  return order.customerName || placedBy?.fullName || order.guestInfo?.fullName || 'Guest';
}

function productNames(order: Order): string {
  return order.products
    .map((line) => line.product?.productName || line.productName || 'Unknown Product')
    .join(', ');
}

function Payment({ order }: { order: Order }) {
  const details = order.paymentDetails as {
    transactionCode?: string;
    timePaid?: string;
    completedBy?: { fullName?: string };
  } | null;
  return (
    <Stack gap={2}>
      <Badge
        color={STATUS_COLOR[order.paymentStatus]}
        variant="light"
        styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
      >
        {order.paymentStatus}
      </Badge>
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

/** The orders table; the actions column is hidden from admins. */
export function OrdersTable({ orders, page, role }: { orders: Order[]; page: number; role: Role }) {
  const showActions = role !== 'admin';
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Order Date</Table.Th>
            <Table.Th>Order Number</Table.Th>
            <Table.Th>Customer Name</Table.Th>
            <Table.Th>Products</Table.Th>
            <Table.Th>Payment Status</Table.Th>
            <Table.Th>Order Status</Table.Th>
            <Table.Th>Subtotal</Table.Th>
            <Table.Th>Fulfillment Status</Table.Th>
            {showActions && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((order, i) => (
            <Table.Tr key={order._id}>
              <Table.Td>{(page - 1) * PAGE_SIZE.orders + i + 1}</Table.Td>
              <Table.Td>{formatDate(order.orderDate)}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.orderDetail(role, order._id)}>
                  {order.purchaseNumber}
                </Anchor>
              </Table.Td>
              <Table.Td>{customerName(order)}</Table.Td>
              <Table.Td maw={260}>{productNames(order)}</Table.Td>
              <Table.Td>
                <Payment order={order} />
              </Table.Td>
              <Table.Td>
                <Badge
                  color={STATUS_COLOR[order.orderStatus]}
                  variant="light"
                  styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                >
                  {order.orderStatus}
                </Badge>
              </Table.Td>
              <Table.Td>{formatMoney(order.totalAmount, 'KSH')}</Table.Td>
              <Table.Td>{order.fulfillmentStatus}</Table.Td>
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
