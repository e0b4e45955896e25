import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { useLowStock } from '../lib/low-stock';
import { ListState } from './list-state';

/**
 * The products list filtered to low stock: out first, then fewest left, each to its stock page;
 * narrowed by the list's search box like the full list (by name, any case).
 */
export function LowStockTable({ search = '' }: { search?: string }) {
  const query = useLowStock();
  const words = search.trim().toLowerCase();
  const items = (query.data?.products ?? []).filter(
    (p) => !words || p.productName.toLowerCase().includes(words),
  );
  return (
    <>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && items.length === 0}
        emptyText={
          words ? `No low-stock product matches “${search.trim()}”.` : 'No product is low on stock.'
        }
      />
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs" aria-label="Low stock products">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Quantity</Table.Th>
                <Table.Th>Low at or below</Table.Th>
                <Table.Th>Stock</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((p) => (
                <Table.Tr key={p._id}>
                  <Table.Td fw={500}>{p.productName}</Table.Td>
                  <Table.Td>
                    <Badge color={p.level === 'out' ? 'red' : 'orange'} variant="light">
                      {p.level === 'out' ? 'Out of Stock' : p.productQuantity}
                    </Badge>
                    {p.level !== 'out' && p.inUnits && (
                      <Text size="xs" c="dimmed">
                        {p.inUnits}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{p.threshold}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.productStock(p._id)} size="sm">
                      Stock history
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
