import {
  Anchor,
  Badge,
  Button,
  Card,
  CloseButton,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { BATCH_STATUSES, formatDate, shopWeek, type BatchStatus } from '@spc/shared-contracts';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useBatches, useCreateBatch, useProductChoices, type BatchRow } from '../api/batches';

import { BatchStatusBadge } from '../components/batch-status-badge';
import { NewBatchModal } from '../components/new-batch-modal';

const count = (n: number) => n.toLocaleString('en-US');

/** Batches by ready date on a wide screen: one row each, opening its page. */
function BatchesTable({ batches }: { batches: BatchRow[] }) {
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Batches">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th>Sown</Table.Th>
            <Table.Th>Ready</Table.Th>
            <Table.Th ta="right">Started</Table.Th>
            <Table.Th ta="right">Lost</Table.Th>
            <Table.Th ta="right">Booked</Table.Th>
            <Table.Th ta="right">Available</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {batches.map((b) => (
            <Table.Tr
              key={b._id}
              style={{ cursor: 'pointer' }}
              onClick={() => navigate(paths.batch(b._id))}
            >
              <Table.Td>
                <Anchor
                  component={Link}
                  to={paths.batch(b._id)}
                  onClick={(e) => e.stopPropagation()}
                >
                  {b.productName}
                </Anchor>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(b.sownOn)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(b.readyOn)}</Table.Td>
              <Table.Td ta="right">{count(b.started)}</Table.Td>
              <Table.Td ta="right">{count(b.lost)}</Table.Td>
              <Table.Td ta="right">{count(b.booked)}</Table.Td>
              <Table.Td ta="right" fw={600}>
                {count(b.available)}
              </Table.Td>
              <Table.Td>
                <BatchStatusBadge status={b.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each batch is a card: nothing scrolls sideways. */
function BatchCards({ batches }: { batches: BatchRow[] }) {
  return (
    <Stack gap="xs">
      {batches.map((b) => (
        <Card key={b._id} withBorder padding="sm" component="article" aria-label={b.productName}>
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Anchor
              component={Link}
              to={paths.batch(b._id)}
              fw={600}
              style={{ overflowWrap: 'anywhere' }}
            >
              {b.productName}
            </Anchor>
            <BatchStatusBadge status={b.status} />
          </Group>
          <Text size="sm" c="dimmed">
            Sown {formatDate(b.sownOn)} · ready {formatDate(b.readyOn)}
          </Text>
          <Text size="sm">
            Started {count(b.started)} · lost {count(b.lost)} · booked {count(b.booked)} ·{' '}
            <b>available {count(b.available)}</b>
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * /manage/batches: batches by ready date with booked against available, filtered by product and
 * status (both kept in the address, so a product's page can link to its batches).
 */
export function BatchesRoute() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const wide = useMediaQuery('(min-width: 62em)', true);
  const productId = params.get('productId') ?? '';
  const status = (params.get('status') ?? '') as BatchStatus | '';
  // `?week=this` (the dashboard's tile): batches whose ready date falls in this shop week.
  const week = params.get('week') === 'this' ? shopWeek() : null;
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const query = useBatches({
    page,
    productId: productId || undefined,
    status: status || undefined,
    readyFrom: week?.from,
    readyTo: week?.to,
  });
  const products = useProductChoices();
  const create = useCreateBatch();
  const batches = query.data?.items ?? [];
  const setFilter = (name: 'productId' | 'status' | 'week', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
    setPage(1);
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Batches</Title>
        <Button onClick={() => setCreating(true)}>New batch</Button>
      </Group>
      <Group>
        <NativeSelect
          aria-label="Filter by product"
          data={[{ value: '', label: 'All products' }, ...(products.data ?? [])]}
          value={productId}
          onChange={(e) => setFilter('productId', e.currentTarget.value)}
          w={{ base: '100%', xs: 260 }}
        />
        <NativeSelect
          aria-label="Filter by status"
          data={[
            { value: '', label: 'All statuses' },
            ...BATCH_STATUSES.map((s) => ({ value: s, label: s })),
          ]}
          value={status}
          onChange={(e) => setFilter('status', e.currentTarget.value)}
          w={{ base: '100%', xs: 200 }}
        />
        {week && (
          <Group gap={4} wrap="nowrap">
            <Badge variant="light" tt="none" size="lg">
              Ready this week ({formatDate(week.from)} – {formatDate(week.to)})
            </Badge>
            <CloseButton
              size="sm"
              aria-label="Show every ready date"
              onClick={() => setFilter('week', '')}
            />
          </Group>
        )}
      </Group>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && batches.length === 0}
        emptyText={productId || status ? 'No batches match these filters.' : 'No batches yet.'}
      />
      {batches.length > 0 &&
        (wide ? <BatchesTable batches={batches} /> : <BatchCards batches={batches} />)}
      {query.isSuccess && (
        <Text size="xs" c="dimmed">
          Seedlings are counted one by one. Available = started − lost − booked.
        </Text>
      )}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
      <NewBatchModal
        opened={creating}
        onClose={() => setCreating(false)}
        products={products.data ?? []}
        productId={productId || undefined}
        pending={create.isPending}
        onSubmit={(body) =>
          create.mutate(body, {
            onSuccess: (answer) => {
              setCreating(false);
              navigate(paths.batch(answer.batch._id));
            },
          })
        }
      />
    </Stack>
  );
}
