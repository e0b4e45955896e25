import { Badge, Tabs } from '@mantine/core';
import { ORDER_QUEUE_LABELS, ORDER_QUEUES, type OrderQueue } from '@spc/shared-contracts';
import { useOrderQueue } from '../api/get-order-queue';

const TABS = [...ORDER_QUEUES, 'all'] as const;

/** The work queue as tabs, each with its count; "All orders" shows everything. */
export function QueueTabs({
  value,
  onChange,
}: {
  value: OrderQueue | undefined;
  onChange: (queue: OrderQueue | undefined) => void;
}) {
  const queue = useOrderQueue();
  const counts = queue.data?.counts;
  return (
    <Tabs
      value={value ?? 'all'}
      onChange={(v) => onChange(v && v !== 'all' ? (v as OrderQueue) : undefined)}
    >
      <Tabs.List aria-label="Work queue">
        {TABS.map((tab) => (
          <Tabs.Tab
            key={tab}
            value={tab}
            data-testid={`queue-${tab}`}
            rightSection={
              <Badge
                size="sm"
                variant={tab === (value ?? 'all') ? 'filled' : 'light'}
                color={queue.isError ? 'red' : 'green'}
                aria-label={`${counts ? counts[tab] : queue.isError ? 'unknown' : 'loading'} orders`}
              >
                {counts ? counts[tab] : queue.isError ? '—' : '…'}
              </Badge>
            }
          >
            {ORDER_QUEUE_LABELS[tab]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {/* The list below is what each tab shows; these empty panels are what the tabs point to
          (aria-controls), so no tab names a missing element. */}
      {TABS.map((tab) => (
        <Tabs.Panel key={tab} value={tab}>
          {null}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
