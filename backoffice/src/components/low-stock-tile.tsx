import { Anchor, Badge, Card, Group, List, ScrollArea, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { useLowStock } from '../lib/low-stock';

/**
 * The "Low stock" tile (admin dashboard and the staff landing page): how many products are low or
 * out, and each by name (out first, then fewest left; scrolling), linking to its stock page.
 */
export function LowStockTile() {
  const query = useLowStock();
  const items = query.data?.products ?? [];
  return (
    <Card withBorder h="100%" aria-label="Low stock" component="section">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Low stock
        </Text>
        <Anchor component={Link} to={`${paths.manageProducts}?lowStock=1`} size="sm">
          See all
        </Anchor>
      </Group>
      <Text fw={700} size="xl">
        {query.isPending ? '…' : query.isError ? '—' : query.data.lowCount + query.data.outCount}
      </Text>
      {query.isError && (
        <Text size="sm" c="red" role="alert">
          Low stock could not be loaded
        </Text>
      )}
      {query.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing is low.
        </Text>
      )}
      {items.length > 0 && (
        <ScrollArea.Autosize mah={180} mt="xs" type="auto">
          <List size="sm" spacing={2} listStyleType="none" aria-label="Low stock products">
            {items.map((p) => (
              <List.Item key={p._id}>
                <Group gap={6} wrap="nowrap">
                  <Anchor component={Link} to={paths.productStock(p._id)} size="sm">
                    {p.productName}
                  </Anchor>
                  <Badge size="xs" color={p.level === 'out' ? 'red' : 'orange'} variant="light">
                    {p.level === 'out' ? 'Out' : `${p.productQuantity} left`}
                  </Badge>
                </Group>
              </List.Item>
            ))}
          </List>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}
