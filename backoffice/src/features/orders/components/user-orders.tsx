import { Stack, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { ListState } from '../../../components/list-state';
import { useUserOrders } from '../api/get-user-orders';
import { OrderFilters } from './order-filters';
import { OrdersPagination } from './orders-pagination';
import { OrdersTable } from './orders-table';
import { CLEARED_FILTERS, useOrderFilters } from './use-order-filters';

/** The second orders list of the spec: one customer's orders, same columns and filters, view only. */
export function UserOrders({ userId }: { userId: string }) {
  const { filter, update, setPage } = useOrderFilters();
  const query = useUserOrders(userId, filter);
  const orders = query.data?.orders ?? [];
  return (
    <Stack>
      <Title order={3}>Orders</Title>
      <OrderFilters filter={filter} onChange={update} onClear={() => update(CLEARED_FILTERS)} />
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && orders.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noOrders}
      />
      {orders.length > 0 && <OrdersTable orders={orders} page={filter.page} role="admin" />}
      <OrdersPagination page={filter.page} answer={query.data} onChange={setPage} />
    </Stack>
  );
}
