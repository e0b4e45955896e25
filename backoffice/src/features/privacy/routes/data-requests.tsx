import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { formatDate } from '@spc/shared-contracts';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import {
  useAnswerWithErasure,
  useAnswerWithExport,
  useDataRequests,
  type DataRequest,
} from '../api/privacy';

const KIND: Record<string, string> = { export: 'A copy of their data', erasure: 'Erasure' };

function Due({ request }: { request: DataRequest }) {
  if (request.status === 'answered')
    return (
      <Badge color="green" variant="light" tt="none">
        answered {request.answeredAt ? formatDate(request.answeredAt) : ''}
      </Badge>
    );
  return (
    <Badge color={request.overdue ? 'red' : 'yellow'} variant="light" tt="none">
      {request.overdue ? 'overdue since' : 'due'} {request.dueAt ? formatDate(request.dueAt) : ''}
    </Badge>
  );
}

function Actions({ request, onErase }: { request: DataRequest; onErase: () => void }) {
  const exportData = useAnswerWithExport();
  if (request.status === 'answered')
    return (
      <Text size="sm">
        {request.answer === 'export' ? 'Data sent' : 'Contacts erased'} by {request.answeredBy}
      </Text>
    );
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        loading={exportData.isPending}
        onClick={() =>
          exportData.mutate(request._id, {
            onSuccess: (name) =>
              notifications.show({
                color: 'green',
                message: `${name} downloaded: send it to ${request.phone}`,
              }),
          })
        }
      >
        download their data
      </Button>
      {request.kind === 'erasure' && (
        <Button size="xs" variant="light" color="red" onClick={onErase}>
          erase
        </Button>
      )}
    </Group>
  );
}

/** /admin/data-requests: guests' confirmed requests, the open ones first, soonest due first. */
export function DataRequestsRoute() {
  const query = useDataRequests();
  const erase = useAnswerWithErasure();
  const [erasing, setErasing] = useState<DataRequest | null>(null);
  const requests = query.data ?? [];
  return (
    <Stack>
      <Title order={2}>Data requests</Title>
      <Text size="sm" c="dimmed">
        Requests of guests (no account) about their data, proved by a code sent to their phone.
        Answer each before its due date: download their data and send it to them, or erase their
        contacts from their orders (the orders stay for the tax records).
      </Text>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && requests.length === 0}
        emptyText="No data requests."
      />
      {requests.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={720} visibleFrom="sm">
            <Table striped withTableBorder aria-label="Data requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Order</Table.Th>
                  <Table.Th>Asks for</Table.Th>
                  <Table.Th>Phone</Table.Th>
                  <Table.Th>Received</Table.Th>
                  <Table.Th>Due</Table.Th>
                  <Table.Th>Answer</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {requests.map((r) => (
                  <Table.Tr key={r._id}>
                    <Table.Td fw={600}>{r.purchaseNumber}</Table.Td>
                    <Table.Td>{KIND[r.kind]}</Table.Td>
                    <Table.Td>{r.phone || '—'}</Table.Td>
                    <Table.Td>{formatDate(r.confirmedAt ?? r.createdAt)}</Table.Td>
                    <Table.Td>
                      <Due request={r} />
                    </Table.Td>
                    <Table.Td>
                      <Actions request={r} onErase={() => setErasing(r)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack hiddenFrom="sm">
            {requests.map((r) => (
              <Card key={r._id} withBorder>
                <Stack gap={4}>
                  <Group justify="space-between">
                    <Text fw={600}>{r.purchaseNumber}</Text>
                    <Due request={r} />
                  </Group>
                  <Text size="sm">
                    {KIND[r.kind]} · {r.phone || '—'}
                  </Text>
                  <Actions request={r} onErase={() => setErasing(r)} />
                </Stack>
              </Card>
            ))}
          </Stack>
        </>
      )}
      <ConfirmModal
        opened={erasing !== null}
        onClose={() => setErasing(null)}
        onConfirm={() => erase.mutateAsync(erasing!._id)}
        message={`are you sure you want to erase the contacts of the orders given with ${erasing?.phone ?? 'this phone'}?`}
      />
    </Stack>
  );
}
