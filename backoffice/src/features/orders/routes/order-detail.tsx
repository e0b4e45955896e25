import {
  Anchor,
  Badge,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  deliveryChoiceText,
  deliveryFeeText,
  formatDateTime,
  formatMoney,
  ORDER_STATUS_WORDS,
  type OrderStatus,
  type Role,
  lineItemName,
} from '@spc/shared-contracts';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { errorCode } from '@spc/shared-contracts/web-client';
import type { Order } from '../api/get-orders';
import { deliveryOf, useOrderDetail, type OrderDetail } from '../api/get-order-detail';
import { OrderActions } from '../components/order-actions';
import { OrderDocuments } from '../components/order-documents';
import { EtimsDocuments } from '../../../components/etims-documents';
import { OrderInvoices } from '../components/order-invoices';
import { OrderLpoScan } from '../components/order-lpo-scan';
import { OrderBooking } from '../components/order-booking';
import { OrderMoneyCard } from '../components/order-money';
import { OrderMpesa } from '../components/order-mpesa';
import { OrderTranches } from '../components/order-tranches';

/** A label and its value, one row of a card. */
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

function Customer({ order, kraPin }: { order: Order; kraPin: string | null }) {
  const g = order.guestInfo;
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Customer
      </Title>
      <Stack gap={6}>
        <Fact label="Name">{order.customerName}</Fact>
        <Fact label="Phone">
          <Anchor href={`tel:${g.phoneNumber.replace(/[^\d+]/g, '')}`}>{g.phoneNumber}</Anchor>
        </Fact>
        <Fact label="E-mail">
          <Anchor href={`mailto:${g.email}`}>{g.email}</Anchor>
        </Fact>
        <Fact label="County">{g.county}</Fact>
        <Fact label="Sub-county">{g.subCounty}</Fact>
        <Fact label="Ward">{g.ward}</Fact>
        <Fact label="Street">{g.streetAddress}</Fact>
        {kraPin && <Fact label="Buyer's KRA PIN (tax invoice)">{kraPin}</Fact>}
      </Stack>
    </Card>
  );
}

function Payment({ order }: { order: Order }) {
  const p = order.paymentDetails;
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Payment
      </Title>
      <Stack gap={6}>
        <Fact label="Status">{order.paymentStatus}</Fact>
        <Fact label="Method">
          {order.paymentMethod === 'Mpesa' ? 'M-Pesa' : order.paymentMethod}
        </Fact>
        <Fact label="Amount">{p ? formatMoney(p.amount, 'KSH') : ''}</Fact>
        {!p && order.amountPaid > 0 && (
          <>
            <Fact label="Paid so far (part-paid)">{formatMoney(order.amountPaid, 'KSH')}</Fact>
            <Fact label="Outstanding">{formatMoney(order.amountOutstanding, 'KSH')}</Fact>
          </>
        )}
        {order.excessPaid > 0 && (
          <Fact label="Over-paid, to refund">{formatMoney(order.excessPaid, 'KSH')}</Fact>
        )}
        <Fact label={order.paymentMethod === 'Mpesa' ? 'M-Pesa receipt code' : 'Transaction code'}>
          {p?.transactionCode}
        </Fact>
        <Fact label="Time paid">{formatDateTime(p?.timePaid ?? order.paidAt)}</Fact>
        <Fact label="Recorded by">{p?.completedBy.fullName}</Fact>
      </Stack>
    </Card>
  );
}

/**
 * An order an organisation's accepted quotation made: its LPO (number and scan), the quotation and
 * the organisation.
 */
function FromQuotation({
  orderId,
  quotation,
  onAccount,
}: {
  orderId: string;
  quotation: NonNullable<Order['quotation']>;
  onAccount: boolean;
}) {
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        From a quotation
      </Title>
      <Text size="sm">
        LPO number <strong style={{ overflowWrap: 'anywhere' }}>{quotation.lpoNumber}</strong>
      </Text>
      <Text size="sm" c="dimmed">
        {onAccount
          ? 'On account: paid by its invoice; it does not expire unpaid'
          : 'Paid up front, like any order'}
      </Text>
      <OrderLpoScan orderId={orderId} lpoNumber={quotation.lpoNumber} scan={quotation.lpoScan} />
      <Group gap="md" mt={4}>
        <Anchor component={Link} to={paths.quotation(quotation.quotationId)} size="sm">
          The quotation
        </Anchor>
        <Anchor component={Link} to={paths.organisation(quotation.organisationId)} size="sm">
          The organisation
        </Anchor>
      </Group>
    </Card>
  );
}

function Lines({ order }: { order: Order }) {
  const choice = deliveryChoiceText(deliveryOf(order));
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Items
      </Title>
      <Table.ScrollContainer minWidth={280}>
        <Table verticalSpacing="xs" horizontalSpacing={6} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Product</Table.Th>
              <Table.Th ta="right">Quantity</Table.Th>
              <Table.Th ta="right">Unit price</Table.Th>
              <Table.Th ta="right">Line total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.products.map((line, i) => (
              <Table.Tr key={`${line.product?._id ?? i}-${i}`}>
                <Table.Td>
                  {lineItemName(line)}
                  {line.batchId && (
                    <Text size="xs" c="dimmed">
                      From{' '}
                      <Anchor component={Link} to={paths.batch(line.batchId)} size="xs">
                        a growing batch
                      </Anchor>
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{line.quantity}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(line.unitPrice, 'KSH')}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(line.lineTotal, 'KSH')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap={6} mt="sm" maw={360} ml="auto">
        <Fact label="Subtotal">{formatMoney(order.subtotal, 'KSH')}</Fact>
        <Fact label={choice ? `Delivery (${choice})` : 'Delivery'}>
          {deliveryFeeText(order.shippingFee, 'KSH')}
        </Fact>
        <Group justify="space-between">
          <Text fw={700}>Total</Text>
          <Text fw={700}>{formatMoney(order.totalAmount, 'KSH')}</Text>
        </Group>
      </Stack>
    </Card>
  );
}

function Steps({ detail }: { detail: OrderDetail }) {
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Timeline
      </Title>
      <Timeline active={detail.timeline.length - 1} bulletSize={14} lineWidth={2}>
        {detail.timeline.map((entry, i) => (
          <Timeline.Item key={`${entry.at}-${i}`} title={entry.step}>
            <Text size="xs" c="dimmed">
              {formatDateTime(entry.at)}
              {entry.by ? ` · ${entry.by}` : ''}
            </Text>
            {entry.text !== entry.step && <Text size="sm">{entry.text}</Text>}
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}

function OrderDetailPage({ role }: { role: Role }) {
  const { id = '' } = useParams();
  const query = useOrderDetail(id);
  const back = role === 'admin' ? paths.adminOrders : paths.staffOrders;
  if (!query.data) {
    const missing =
      errorCode(query.error) === 'NOT_FOUND' || errorCode(query.error) === 'VALIDATION_FAILED';
    return (
      <Stack>
        <Anchor component={Link} to={back}>
          ← Orders
        </Anchor>
        <ListState
          isLoading={query.isPending}
          isError={query.isError}
          isEmpty={false}
          emptyText=""
          errorText={missing ? 'No order with this id' : BACKOFFICE_MESSAGES.listError}
        />
      </Stack>
    );
  }
  const detail = query.data;
  const { order } = detail;
  return (
    <Stack>
      <Anchor component={Link} to={back}>
        ← Orders
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>Order {order.purchaseNumber}</Title>
          <Text size="sm" c="dimmed">
            Placed {formatDateTime(order.orderDate)}
          </Text>
        </div>
        <Group gap="xs">
          <Badge variant="light" size="lg">
            {ORDER_STATUS_WORDS[order.orderStatus as OrderStatus] ?? order.orderStatus}
          </Badge>
          <Badge
            variant="light"
            size="lg"
            color={order.paymentStatus === 'Paid' ? 'green' : 'yellow'}
          >
            {order.paymentStatus === 'Paid'
              ? 'Paid'
              : order.amountPaid > 0
                ? 'Part-paid'
                : 'Payment pending'}
          </Badge>
        </Group>
      </Group>
      {role === 'staff' && (
        <Card withBorder>
          <Title order={3} size="h4" mb="sm">
            Actions
          </Title>
          <OrderActions order={order} role={role} layout="buttons" />
        </Card>
      )}
      {order.booking && <OrderBooking order={order} canAct={role === 'staff'} />}
      {order.quotation && (
        <FromQuotation
          orderId={order._id}
          quotation={order.quotation}
          onAccount={order.onAccount}
        />
      )}
      {order.quotation && <OrderTranches orderId={order._id} role={role} />}
      {order.quotation && <OrderInvoices orderId={order._id} />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Customer order={order} kraPin={order.kraPin} />
        <Payment order={order} />
      </SimpleGrid>
      <OrderMoneyCard money={detail.money} />
      <EtimsDocuments documents={detail.etims} />
      <OrderMpesa
        orderId={order._id}
        canRetry={role === 'staff'}
        refundDue={
          order.orderStatus === 'Cancelled' &&
          (order.paymentStatus === 'Paid' || order.amountPaid > 0)
        }
      />
      <Lines order={order} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={3} size="h4" mb="sm">
            Receipt and delivery note
          </Title>
          <OrderDocuments detail={detail} role={role} />
        </Card>
        <Steps detail={detail} />
      </SimpleGrid>
    </Stack>
  );
}

/** /admin/orders/:id: the order, view only (admins do not act on orders). */
export function AdminOrderDetailRoute() {
  return <OrderDetailPage role="admin" />;
}

/** /staff/orders/:id: the order with the actions its state allows. */
export function StaffOrderDetailRoute() {
  return <OrderDetailPage role="staff" />;
}
