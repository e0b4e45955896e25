import { Alert, Button, Group, List, Paper, Text } from '@mantine/core';
import {
  BULK_ORDER_ACTION_LABELS,
  BULK_ORDER_ACTIONS,
  bulkConfirmQuestion,
  type BulkOrderAction,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useBulkOrders, type BulkOrdersResult } from '../api/bulk-orders';

const plural = (n: number) => (n === 1 ? '1 order' : `${n} orders`);

/** The outcome of a bulk action: how many were done, and each refused order with its reason. */
export function BulkResult({ result, onClose }: { result: BulkOrdersResult; onClose: () => void }) {
  const refused = result.refused;
  return (
    <Alert
      color={refused.length ? 'orange' : 'green'}
      title={result.message}
      withCloseButton
      closeButtonLabel="Close the result"
      onClose={onClose}
      role="status"
      data-testid="bulk-result"
    >
      <Text size="sm">{plural(result.done)} done.</Text>
      {refused.length > 0 && (
        <>
          <Text size="sm" mt={4}>
            Refused, left as they were:
          </Text>
          <List size="sm" data-testid="bulk-refused">
            {refused.map((r) => (
              <List.Item key={r._id}>
                <b>{r.purchaseNumber ?? r._id}</b>: {r.message}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}

/** The selected orders' actions: one confirmation naming the count, one call for the batch. */
export function BulkBar({
  selectedIds,
  onDone,
  onClearSelection,
}: {
  selectedIds: string[];
  onDone: (result: BulkOrdersResult) => void;
  onClearSelection: () => void;
}) {
  const [action, setAction] = useState<BulkOrderAction | null>(null);
  const bulk = useBulkOrders();
  if (!selectedIds.length) return null;
  return (
    <Paper withBorder p="xs" data-testid="bulk-bar">
      <Group gap="sm" justify="space-between">
        <Text size="sm" fw={600}>
          {plural(selectedIds.length)} selected
        </Text>
        <Group gap="xs">
          {BULK_ORDER_ACTIONS.map((a) => (
            <Button
              key={a}
              size="xs"
              variant={a === 'cancel' ? 'light' : 'filled'}
              color={a === 'cancel' ? 'red' : undefined}
              disabled={bulk.isPending}
              onClick={() => setAction(a)}
            >
              {BULK_ORDER_ACTION_LABELS[a]}
            </Button>
          ))}
          <Button size="xs" variant="subtle" onClick={onClearSelection} disabled={bulk.isPending}>
            Clear selection
          </Button>
        </Group>
      </Group>
      {BULK_ORDER_ACTIONS.map((a) => (
        <ConfirmModal
          key={a}
          opened={action === a}
          onClose={() => setAction(null)}
          title={`${BULK_ORDER_ACTION_LABELS[a]} · ${plural(selectedIds.length)}`}
          message={bulkConfirmQuestion(a, selectedIds.length)}
          confirmLabel="Yes"
          cancelLabel="No"
          destructive={a === 'cancel'}
          closeAfterMs={0}
          onConfirm={() =>
            bulk.mutateAsync({ action: a, orderIds: selectedIds }).then((result) => {
              onDone(result);
              return result;
            })
          }
        />
      ))}
    </Paper>
  );
}
