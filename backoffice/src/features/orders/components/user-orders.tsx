import { Stack, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { useUserOrders } from '../api/get-user-orders';
import { OrdersTable } from './orders-table';

/** The second orders list of the spec: one customer's orders, same columns, view only. */
export function UserOrders({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const query = useUserOrders(userId, page);
  const orders = query.data?.orders ?? [];
  return (
    <Stack>
      <Title order={3}>Orders</Title>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && orders.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noOrders}
      />
      {orders.length > 0 && <OrdersTable orders={orders} page={page} role="admin" />}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}
