import { Badge } from '@mantine/core';
import type { BatchStatus } from '@spc/shared-contracts';

const COLOR: Record<BatchStatus, string> = {
  Growing: 'blue',
  Ready: 'green',
  'Sold out': 'gray',
  Failed: 'red',
};

/** A batch's status in its colour. */
export function BatchStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={COLOR[status as BatchStatus] ?? 'gray'} tt="none">
      {status}
    </Badge>
  );
}
