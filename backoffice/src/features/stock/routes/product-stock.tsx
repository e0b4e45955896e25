import {
  Anchor,
  Badge,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  formatDateTime,
  STOCK_REASONS,
  STOCK_REASON_LABELS,
  STOCK_SHORT_LABEL,
  type StockReason,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useMovements, type Movement } from '../api/stock';
import { CountForm, LossForm, ThresholdForm } from '../components/stock-forms';

const LEVEL = {
  ok: { label: 'In stock', color: 'green' },
  low: { label: 'Low stock', color: 'orange' },
  out: { label: 'Out of stock', color: 'red' },
} as const;

function who(m: Movement): string {
  if (m.by) return m.by.fullName;
  return m.purchaseNumber ? 'Guest' : 'The shop';
}

/** /manage/products/:id/stock: the product's stock ledger and the forms that change it. */
export function ProductStockRoute() {
  const { id = '' } = useParams();
  const [page, setPage] = useState(1);
  const [reason, setReason] = useState<StockReason | 'loss' | ''>('');
  const query = useMovements(id, { page, reason: reason || undefined });
  const data = query.data;
  const movements = data?.movements ?? [];
  return (
    <Stack>
      <Anchor component={Link} to={paths.manageProducts} size="sm">
        ← Products
      </Anchor>
      {query.isPending && <ListState isLoading isError={false} isEmpty={false} emptyText="" />}
      {query.isError && !data && (
        <ListState isLoading={false} isError isEmpty={false} emptyText="" />
      )}
      {data && (
        <>
          <Group justify="space-between" align="flex-end">
            <div>
              <Title order={2}>{data.product.productName}</Title>
              <Text c="dimmed" size="sm">
                Stock ledger ·{' '}
                <Anchor component={Link} to={paths.productBatches(id)} size="sm">
                  Batches of this product
                </Anchor>
              </Text>
            </div>
            <Group gap="xs">
              <Text fw={700} size="xl" aria-label="Quantity in stock">
                {data.product.productQuantity} in stock
              </Text>
              <Badge color={LEVEL[data.stock.level].color} variant="light">
                {LEVEL[data.stock.level].label}
              </Badge>
            </Group>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <LossForm productId={id} />
            <CountForm productId={id} />
            <ThresholdForm
              productId={id}
              current={data.stock.lowStockThreshold}
              defaultThreshold={data.stock.threshold}
            />
          </SimpleGrid>
          <Group justify="space-between">
            <Title order={3}>Movements</Title>
            <NativeSelect
              aria-label="Filter by reason"
              data={[
                { value: '', label: 'All reasons' },
                { value: 'loss', label: 'All losses' },
                ...STOCK_REASONS.map((r) => ({ value: r, label: STOCK_REASON_LABELS[r] })),
              ]}
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value as StockReason | 'loss' | '');
                setPage(1);
              }}
              w={240}
            />
          </Group>
          <ListState
            isLoading={false}
            isError={query.isError}
            isEmpty={movements.length === 0}
            emptyText="No stock movements to show."
          />
          {movements.length > 0 && (
            <Table.ScrollContainer minWidth={760}>
              <Table striped verticalSpacing="xs" aria-label="Stock movements">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Reason</Table.Th>
                    <Table.Th>Change</Table.Th>
                    <Table.Th>Quantity after</Table.Th>
                    <Table.Th>By</Table.Th>
                    <Table.Th>Order</Table.Th>
                    <Table.Th>Note</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {movements.map((m) => (
                    <Table.Tr key={m._id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.at)}</Table.Td>
                      <Table.Td>
                        {STOCK_REASON_LABELS[m.reason]}
                        {m.short && (
                          <Badge
                            ml={6}
                            color="orange"
                            variant="filled"
                            title={STOCK_SHORT_LABEL}
                            aria-label={STOCK_SHORT_LABEL}
                          >
                            Short
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td c={m.change < 0 ? 'red' : 'green'} fw={600}>
                        {m.change > 0 ? `+${m.change}` : m.change}
                      </Table.Td>
                      <Table.Td>{m.quantityAfter}</Table.Td>
                      <Table.Td>{who(m)}</Table.Td>
                      <Table.Td>{m.purchaseNumber ?? '—'}</Table.Td>
                      <Table.Td maw={260}>
                        <Text size="sm" lineClamp={2}>
                          {m.note}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <PaginationControl page={page} totalPages={data.totalPages} onChange={setPage} />
        </>
      )}
    </Stack>
  );
}
