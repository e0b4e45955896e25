import {
  Anchor,
  Card,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  formatDate,
  formatMoney,
  QUOTATION_STATUS_LABELS_FOR_SHOP,
  QUOTATION_STATUSES,
  type QuotationStatus,
  type QuotationSummary,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { QuotationStatusBadge } from '../../../components/quotation-status-badge';
import { paths } from '../../../config/paths';
import { useQuotations } from '../api/get-quotations';

const total = (q: QuotationSummary) => (q.total === null ? '—' : formatMoney(q.total, 'KES'));

function QuotationsTable({ rows }: { rows: QuotationSummary[] }) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Quotations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Organisation</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Total</Table.Th>
            <Table.Th>Valid until</Table.Th>
            <Table.Th>Versions</Table.Th>
            <Table.Th>Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((q) => (
            <Table.Tr key={q._id}>
              <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                <Anchor component={Link} to={paths.quotation(q._id)}>
                  {q.number}
                </Anchor>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{q.organisationName}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap', minWidth: 170 }}>
                <QuotationStatusBadge status={q.status} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{total(q)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {q.validUntil ? formatDate(q.validUntil) : '—'}
              </Table.Td>
              <Table.Td>{q.versions}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(q.updatedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each quotation is a card: nothing scrolls sideways. */
function QuotationCards({ rows }: { rows: QuotationSummary[] }) {
  return (
    <Stack gap="xs">
      {rows.map((q) => (
        <Card key={q._id} withBorder padding="sm" component="article" aria-label={q.number}>
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Anchor component={Link} to={paths.quotation(q._id)} fw={600}>
              {q.number}
            </Anchor>
            <QuotationStatusBadge status={q.status} />
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {q.organisationName}
          </Text>
          <Text size="sm" c="dimmed">
            {total(q)}
            {q.validUntil ? ` · valid until ${formatDate(q.validUntil)}` : ''} · updated{' '}
            {formatDate(q.updatedAt)}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * /manage/quotations: the quote desk, latest change first. `?status=requested` is the "awaiting
 * the shop" view the dashboard links to; the status is kept in the address.
 */
export function QuotationsRoute() {
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery('(min-width: 62em)', true);
  const status = (params.get('status') ?? '') as QuotationStatus | '';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const query = useQuotations({
    page,
    status: status || undefined,
    search: debounced || undefined,
  });
  const rows = query.data?.quotations ?? [];
  const setStatus = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('status', value);
    else next.delete('status');
    setParams(next, { replace: true });
    setPage(1);
  };
  return (
    <Stack>
      <Title order={2}>Quotations</Title>
      <Group>
        <TextInput
          aria-label="Search by organisation or number"
          placeholder="Organisation or QUO- number"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          maxLength={100}
          w={{ base: '100%', xs: 280 }}
        />
        <NativeSelect
          aria-label="Filter by status"
          data={[
            { value: '', label: 'All statuses' },
            ...QUOTATION_STATUSES.map((s) => ({
              value: s,
              label: QUOTATION_STATUS_LABELS_FOR_SHOP[s],
            })),
          ]}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value)}
          w={{ base: '100%', xs: 220 }}
        />
      </Group>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && rows.length === 0}
        emptyText={
          status || debounced ? 'No quotations match these filters.' : 'No quotations yet.'
        }
      />
      {rows.length > 0 && (wide ? <QuotationsTable rows={rows} /> : <QuotationCards rows={rows} />)}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}
