import { Anchor, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import {
  formatDate,
  formatMoney,
  INVOICE_FILTERS,
  trancheLabel,
  type InvoiceFilter,
  type InvoiceView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { InvoiceStateBadge } from '../../../components/invoice-state-badge';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import { useInvoices } from '../api/get-invoices';
import { OrganisationPicker } from '../components/organisation-picker';

const TAB_LABELS: Record<InvoiceFilter, string> = {
  all: 'All',
  open: 'Open',
  overdue: 'Overdue',
  paid: 'Paid',
};

const EMPTY: Record<InvoiceFilter, string> = {
  all: 'No invoices yet',
  open: 'No open invoices',
  overdue: 'Nothing is overdue',
  paid: 'No paid invoices yet',
};

const money = (n: number) => formatMoney(n, 'KES');
const nowrap = { whiteSpace: 'nowrap' } as const;

const isFilter = (value: string | null): value is InvoiceFilter =>
  (INVOICE_FILTERS as readonly string[]).includes(value ?? '');

/** The invoices as a table that scrolls sideways in its container on a phone. */
export function InvoicesTable({ rows }: { rows: InvoiceView[] }) {
  const role = useSessionRole() ?? 'staff';
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label="Invoices">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Organisation</Table.Th>
            <Table.Th>Order</Table.Th>
            <Table.Th>Tranche</Table.Th>
            <Table.Th>Issued</Table.Th>
            <Table.Th>Due date</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td ff="monospace" style={nowrap}>
                <Anchor component={Link} to={paths.invoice(i.id)}>
                  {i.number}
                </Anchor>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                {i.organisation.name}
              </Table.Td>
              <Table.Td style={nowrap}>
                <Anchor component={Link} to={paths.orderDetail(role, i.orderId)}>
                  {i.purchaseNumber}
                </Anchor>
              </Table.Td>
              <Table.Td style={nowrap}>
                {i.tranche === null ? 'Whole order' : trancheLabel(i.tranche)}
              </Table.Td>
              <Table.Td style={nowrap}>{formatDate(i.issuedAt)}</Table.Td>
              <Table.Td style={nowrap}>{formatDate(i.dueDate)}</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(i.total)}
              </Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(i.balance)}
              </Table.Td>
              <Table.Td style={nowrap}>
                <InvoiceStateBadge invoice={i} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * /invoices: invoices on account (issue 44), by filter (all, open, overdue, paid), newest first;
 * the overdue tab says what is owed in all. `?filter=` and `?organisationId=` are kept in the
 * address (the dashboard's tile and an organisation's page link here).
 */
export function InvoicesRoute() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('filter');
  const filter: InvoiceFilter = isFilter(raw) ? raw : 'all';
  const organisationId = params.get('organisationId') ?? undefined;
  const [page, setPage] = useState(1);
  const query = useInvoices({ filter, page, organisationId });
  const rows = query.data?.invoices ?? [];
  const change = (key: 'filter' | 'organisationId', value: string | null) => {
    const next = new URLSearchParams(params);
    if (value && !(key === 'filter' && value === 'all')) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
    setPage(1);
  };
  const organisationName = organisationId
    ? rows.find((i) => i.organisation.id === organisationId)?.organisation.name
    : undefined;
  return (
    <Stack>
      <Title order={2}>Invoices</Title>
      <OrganisationPicker
        value={organisationId}
        name={organisationName}
        onChange={(id) => change('organisationId', id)}
      />
      <Tabs value={filter} onChange={(v) => change('filter', v)}>
        <Tabs.List aria-label="Which invoices" style={{ flexWrap: 'wrap' }}>
          {INVOICE_FILTERS.map((f) => (
            <Tabs.Tab key={f} value={f}>
              {TAB_LABELS[f]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* The list below is what each tab shows; these empty panels are what the tabs point to
            (aria-controls), so no tab names a missing element. */}
        {INVOICE_FILTERS.map((f) => (
          <Tabs.Panel key={f} value={f}>
            {null}
          </Tabs.Panel>
        ))}
      </Tabs>
      {filter === 'overdue' && query.data && (
        <Text fw={600} data-testid="owed">
          Owed on overdue invoices: {money(query.data.owed)}
        </Text>
      )}
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && rows.length === 0}
        emptyText={EMPTY[filter]}
      />
      {rows.length > 0 && <InvoicesTable rows={rows} />}
      <PaginationControl
        page={page}
        totalPages={query.data?.pages ?? 0}
        onChange={setPage}
        total={query.data ? { total: query.data.total, totalIsLowerBound: false } : undefined}
        noun={{ one: 'invoice', many: 'invoices' }}
      />
    </Stack>
  );
}
