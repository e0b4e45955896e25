import { Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  BACKOFFICE_MESSAGES,
  ORDER_STATUSES,
  type OrderStatus,
  type Role,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { LowStockTile } from '../../../components/low-stock-tile';
import { PaginationControl } from '../../../components/pagination-control';
import { storefrontPaths } from '../../../config/paths';
import { useOrders } from '../api/get-orders';
import { OrdersTable } from '../components/orders-table';

function OrdersPage({ role }: { role: Role }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<OrderStatus | undefined>();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const query = useOrders({ page, status, search: debounced || undefined });
  const orders = query.data?.orders ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Orders</Title>
        {role === 'staff' && (
          <Button component="a" href={storefrontPaths.shop}>
            Place Order
          </Button>
        )}
      </Group>
      {role === 'staff' && <LowStockTile />}
      <Group>
        <Select
          aria-label="Order status"
          placeholder="All statuses"
          clearable
          data={[...ORDER_STATUSES]}
          value={status ?? null}
          onChange={(v) => {
            setStatus((v as OrderStatus | null) ?? undefined);
            setPage(1);
          }}
        />
        <TextInput
          aria-label="Search orders"
          placeholder="Search by order number or customer"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={300}
        />
      </Group>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && orders.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noOrders}
      />
      {orders.length > 0 && <OrdersTable orders={orders} page={page} role={role} />}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}

/** /admin/orders: view only. */
export function AdminOrdersRoute() {
  return <OrdersPage role="admin" />;
}

/** /staff/orders: with the row actions and Place Order. */
export function StaffOrdersRoute() {
  return <OrdersPage role="staff" />;
}
