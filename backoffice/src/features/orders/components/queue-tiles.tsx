import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import { ORDER_QUEUE_LABELS, ORDER_QUEUES } from '@spc/shared-contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useOrderQueue } from '../api/get-order-queue';

/**
 * The work queue's counts as dashboard tiles, each opening the orders list on that tab; more tiles
 * (e.g. low stock) can be passed as children and join the same row.
 */
export function QueueTiles({ ordersPath, children }: { ordersPath: string; children?: ReactNode }) {
  const queue = useOrderQueue();
  const counts = queue.data?.counts;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label="Orders to handle">
      {ORDER_QUEUES.map((q) => (
        <Anchor
          key={q}
          component={Link}
          to={`${ordersPath}?queue=${q}`}
          underline="never"
          c="inherit"
        >
          <Card withBorder h="100%">
            <Text size="sm" c="dimmed">
              {ORDER_QUEUE_LABELS[q]}
            </Text>
            <Text fw={700} size="xl" data-testid={`tile-${q}`}>
              {counts ? counts[q] : queue.isError ? '—' : '…'}
            </Text>
          </Card>
        </Anchor>
      ))}
      {children}
    </SimpleGrid>
  );
}
