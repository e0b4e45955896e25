import { Button } from '@mantine/core';
import { ORDER_EXPORT_MAX_ROWS } from '@spc/shared-contracts';
import type { OrdersFilter } from '../api/get-orders';
import { useExportOrders } from '../api/export-orders';

/** Downloads the orders of the current filters (every page) as CSV. */
export function ExportButton({ filter }: { filter: OrdersFilter }) {
  const exporter = useExportOrders();
  return (
    <Button
      variant="default"
      loading={exporter.isPending}
      onClick={() => exporter.mutate(filter)}
      title={`The orders of the current filters, every page (at most ${ORDER_EXPORT_MAX_ROWS.toLocaleString('en-US')})`}
    >
      Export CSV
    </Button>
  );
}
