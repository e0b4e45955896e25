import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES, type Role } from '@spc/shared-contracts';
import { useMemo, useState } from 'react';
import { ListState } from '../../../components/list-state';
import { PaymentsInboxTile } from '../components/payments-inbox-tile';
import { LowStockTile } from '../../../components/low-stock-tile';
import { storefrontPaths } from '../../../config/paths';
import type { BulkOrdersResult } from '../api/bulk-orders';
import { useOrders } from '../api/get-orders';
import { BulkBar, BulkResult } from '../components/bulk-bar';
import { ExportButton } from '../components/export-button';
import { OrderFilters } from '../components/order-filters';
import { OrdersPagination } from '../components/orders-pagination';
import { OrdersTable, type OrderSelection } from '../components/orders-table';
import { QueueTabs } from '../components/queue-tabs';
import { TrancheDesk } from '../components/tranche-desk';
import { CLEARED_FILTERS, useOrderFilters } from '../components/use-order-filters';

function OrdersPage({ role }: { role: Role }) {
  const { filter, update, setPage } = useOrderFilters();
  const query = useOrders(filter);
  const orders = useMemo(() => query.data?.orders ?? [], [query.data]);
  // What is ticked belongs to the list shown: another page or filter starts afresh.
  const listKey = JSON.stringify(filter);
  const [ticked, setTicked] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: listKey,
    ids: new Set(),
  });
  const selected = ticked.key === listKey ? ticked.ids : new Set<string>();
  const setSelected = (change: (s: ReadonlySet<string>) => ReadonlySet<string>) =>
    setTicked((t) => ({ key: listKey, ids: change(t.key === listKey ? t.ids : new Set()) }));
  const [result, setResult] = useState<BulkOrdersResult | null>(null);
  // Bulk actions are staff work: admin order screens are view-only.
  const canAct = role === 'staff';

  const selection: OrderSelection = {
    selected,
    toggle: (id) =>
      setSelected((s) => {
        const next = new Set(s);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    setAll: (ids, on) =>
      setSelected((s) => {
        const next = new Set(s);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Orders</Title>
        <Group gap="xs">
          <ExportButton filter={filter} />
          {role === 'staff' && (
            <Button component="a" href={storefrontPaths.shop}>
              Place Order
            </Button>
          )}
        </Group>
      </Group>
      {/* The work queue leads; low stock is one tile beside the queue's size, never a list. */}
      <QueueTabs value={filter.queue} onChange={(queue) => update({ queue })} />
      {role === 'staff' && (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <LowStockTile />
          <PaymentsInboxTile />
        </SimpleGrid>
      )}
      <TrancheDesk role={role} />
      <OrderFilters filter={filter} onChange={update} onClear={() => update(CLEARED_FILTERS)} />
      {result && <BulkResult result={result} onClose={() => setResult(null)} />}
      {canAct && (
        <BulkBar
          selectedIds={orders.filter((o) => selected.has(o._id)).map((o) => o._id)}
          onClearSelection={() => setSelected(() => new Set())}
          onDone={(r) => {
            setResult(r);
            setSelected(() => new Set());
          }}
        />
      )}
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && orders.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noOrders}
      />
      {orders.length > 0 && (
        <OrdersTable
          orders={orders}
          page={filter.page}
          role={role}
          selection={canAct ? selection : undefined}
        />
      )}
      <OrdersPagination page={filter.page} answer={query.data} onChange={setPage} />
    </Stack>
  );
}

/** /admin/orders: view only, with the work queue, filters and the export. */
export function AdminOrdersRoute() {
  return <OrdersPage role="admin" />;
}

/** /staff/orders: the staff landing page: the work queue, the row actions and bulk actions. */
export function StaffOrdersRoute() {
  return <OrdersPage role="staff" />;
}
