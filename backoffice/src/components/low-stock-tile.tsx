import { Anchor, Card, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { useLowStock } from '../lib/low-stock';

/**
 * The "Low stock" tile (admin dashboard and the staff landing page): how many products are low or
 * out, as a tile the size of the queue's, leading to the products list filtered to them.
 */
export function LowStockTile() {
  const query = useLowStock();
  const count = query.isSuccess ? query.data.lowCount + query.data.outCount : undefined;
  return (
    <Anchor
      component={Link}
      to={`${paths.manageProducts}?lowStock=1`}
      underline="never"
      c="inherit"
    >
      <Card withBorder h="100%">
        <Text size="sm" c="dimmed">
          Low stock
        </Text>
        <Text fw={700} size="xl" data-testid="tile-low-stock">
          {query.isPending ? '…' : query.isError ? '—' : count}
        </Text>
        {query.isError && (
          <Text size="sm" c="red" role="alert">
            Low stock could not be loaded
          </Text>
        )}
      </Card>
    </Anchor>
  );
}
