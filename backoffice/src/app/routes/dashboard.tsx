import {
  Anchor,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { formatMoney } from '@spc/shared-contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PaymentsInboxTile } from '../../features/orders/components/payments-inbox-tile';
import { LowStockTile } from '../../components/low-stock-tile';
import { paths } from '../../config/paths';
import { useSalesSummary } from '../../features/reports/api/get-sales-summary';
import { useOrderQueue } from '../../features/orders/api/get-order-queue';
import { QueueTiles } from '../../features/orders/components/queue-tiles';
import { TrancheTiles } from '../../features/orders/components/tranche-desk';
import { useStaff } from '../../features/staff/api/get-staff';
import { useUsers } from '../../features/users/api/get-users';
import { useOrganisations } from '../../features/organisations/api/organisations';
import { useAwaitingShopCount } from '../../features/quotations/api/get-awaiting-count';
import { UsersList } from '../../features/users/components/users-list';

function Tile({ label, value, to }: { label: string; value: ReactNode; to?: string }) {
  const body = (
    <Card withBorder h="100%">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Card>
  );
  return to ? (
    <Anchor component={Link} to={to} underline="never" c="inherit">
      {body}
    </Anchor>
  ) : (
    body
  );
}

/** What is owed on invoices past their due date (issue 44); an API without it counts none. */
const overdueOf = (summary: object | undefined) =>
  (summary as { overdueInvoices?: { count: number; amount: number } } | undefined)
    ?.overdueInvoices ?? { count: 0, amount: 0 };

/** /admin/dashboard: insight tiles, the sales cards, and the users list. */
export function DashboardRoute() {
  const staff = useStaff({ page: 1 });
  const users = useUsers({ page: 1 });
  const sales = useSalesSummary();
  const queue = useOrderQueue();
  const waiting = useOrganisations({ page: 1, status: 'pending' });
  const quotes = useAwaitingShopCount();
  const failed =
    staff.isError ||
    users.isError ||
    sales.isError ||
    queue.isError ||
    waiting.isError ||
    quotes.isError;
  const show = (q: { isPending: boolean; isError: boolean }, value: ReactNode) =>
    q.isPending ? '…' : q.isError ? '—' : value;
  const overdue = overdueOf(sales.data);
  return (
    <Stack>
      <Group>
        <Title order={2}>Dashboard</Title>
        {failed && (
          <Tooltip label="Some figures could not be loaded">
            <ThemeIcon color="red" radius="xl" size="sm" role="img" aria-label="error">
              !
            </ThemeIcon>
          </Tooltip>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Tile
          label="Total Staff"
          to={paths.adminStaff}
          value={show(staff, staff.data?.totalStaff)}
        />
        <Tile label="Total Customers" to="#users" value={show(users, users.data?.totalUsers)} />
        <Tile
          label="Total Sales"
          to={paths.adminOrders}
          value={show(sales, formatMoney(sales.data?.totalSales ?? 0, 'KSH'))}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Tile
          label="Daily Sales"
          to={paths.adminReports}
          value={show(sales, formatMoney(sales.data?.dailySales ?? 0, 'KSH'))}
        />
        <Tile
          label="Weekly Sales"
          to={paths.adminReports}
          value={show(sales, formatMoney(sales.data?.weeklySales ?? 0, 'KSH'))}
        />
        <Tile
          label="Total Sales"
          to={paths.adminReports}
          value={show(sales, formatMoney(sales.data?.totalSales ?? 0, 'KSH'))}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} aria-label="Bookings">
        <Tile
          label="Balances due this week"
          to={`${paths.manageBookings}?tab=balances`}
          value={show(
            sales,
            `${sales.data?.balancesDueThisWeek?.count ?? 0} · ${formatMoney(sales.data?.balancesDueThisWeek?.amount ?? 0, 'KSH')}`,
          )}
        />
        <Tile
          label="Batches ready this week"
          to={`${paths.manageBatches}?week=this`}
          value={show(sales, sales.data?.batchesReadyThisWeek ?? 0)}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} aria-label="Organisations">
        <Tile
          label="Organisations waiting for approval"
          to={paths.organisationsWaiting}
          value={show(waiting, waiting.data?.totalOrganisations ?? 0)}
        />
        <Tile
          label="Quotations awaiting the shop"
          to={paths.quotationsAwaiting}
          value={show(quotes, quotes.data?.count ?? 0)}
        />
        <Tile
          label="Overdue invoices"
          to={paths.invoicesOverdue}
          value={show(sales, `${overdue.count} · ${formatMoney(overdue.amount, 'KSH')}`)}
        />
      </SimpleGrid>
      <Title order={3} size="h4">
        Orders to handle
      </Title>
      <QueueTiles ordersPath={paths.adminOrders}>
        <LowStockTile />
        <PaymentsInboxTile />
      </QueueTiles>
      <TrancheTiles ordersPath={paths.adminOrders} />
      <UsersList />
    </Stack>
  );
}
