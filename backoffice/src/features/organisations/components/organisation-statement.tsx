import { Anchor, Button, Group, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  AGEING_BUCKETS,
  AGEING_LABELS,
  formatDate,
  formatMoney,
  INVOICE_PAYMENT_KIND_LABELS,
  shopToday,
  type StatementLineKind,
  type StatementView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { DownloadButton } from '../../../components/download-button';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { downloadStatement } from '../../../lib/invoices';
import { useStatement, type StatementPeriod } from '../api/organisation-statement';

const money = (n: number) => formatMoney(n, 'KES');
const amount = (n: number) => (n ? money(n) : '');
const nowrap = { whiteSpace: 'nowrap' } as const;
const day = (d: string) => formatDate(`${d}T12:00:00Z`);

const KIND_LABELS: Record<StatementLineKind, string> = {
  invoice: 'Invoice',
  creditNote: 'Credit note',
  ...INVOICE_PAYMENT_KIND_LABELS,
};

/** This month so far, in the shop's days. */
export function thisMonth(today = shopToday()): StatementPeriod {
  return { from: `${today.slice(0, 8)}01`, to: today };
}

function StatementTable({ statement }: { statement: StatementView }) {
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" horizontalSpacing={6} fz="sm" aria-label="Statement">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Debit</Table.Th>
              <Table.Th ta="right">Credit</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td style={nowrap}>{day(statement.from)}</Table.Td>
              <Table.Td colSpan={5}>Opening balance</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(statement.openingBalance)}
              </Table.Td>
            </Table.Tr>
            {statement.lines.map((l, i) => (
              <Table.Tr key={`${l.kind}-${l.reference}-${i}`}>
                <Table.Td style={nowrap}>{day(l.date)}</Table.Td>
                <Table.Td style={nowrap}>{KIND_LABELS[l.kind]}</Table.Td>
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {l.reference}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{l.description}</Table.Td>
                <Table.Td ta="right" style={nowrap}>
                  {amount(l.debit)}
                </Table.Td>
                <Table.Td ta="right" style={nowrap}>
                  {amount(l.credit)}
                </Table.Td>
                <Table.Td ta="right" style={nowrap}>
                  {money(l.balance)}
                </Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td style={nowrap}>{day(statement.to)}</Table.Td>
              <Table.Td colSpan={5} fw={700}>
                Closing balance
              </Table.Td>
              <Table.Td ta="right" fw={700} style={nowrap}>
                {money(statement.closingBalance)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {statement.lines.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing was invoiced or paid in this period.
        </Text>
      )}
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing={4} horizontalSpacing={6} fz="sm" aria-label="Ageing">
          <Table.Thead>
            <Table.Tr>
              {AGEING_BUCKETS.map((b) => (
                <Table.Th key={b} ta="right">
                  {AGEING_LABELS[b]}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              {AGEING_BUCKETS.map((b) => (
                <Table.Td key={b} ta="right" style={nowrap}>
                  {money(statement.ageing[b])}
                </Table.Td>
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group gap="lg">
        <Text size="sm" c={statement.overdue > 0 ? 'red' : undefined} fw={600}>
          Overdue: {money(statement.overdue)}
        </Text>
        {statement.excess > 0 && (
          <Text size="sm">Excess paid, in their favour: {money(statement.excess)}</Text>
        )}
      </Group>
    </Stack>
  );
}

/**
 * An organisation's statement (issue 44): a period (this month unless changed), viewed here as a
 * table with its ageing, or downloaded as the PDF or CSV the API writes.
 */
export function OrganisationStatement({
  organisationId,
  kraPin,
}: {
  organisationId: string;
  kraPin: string;
}) {
  const [typed, setTyped] = useState<StatementPeriod>(() => thisMonth());
  const [viewed, setViewed] = useState<StatementPeriod | null>(null);
  const query = useStatement(organisationId, viewed);
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(typed.from) &&
    /^\d{4}-\d{2}-\d{2}$/.test(typed.to) &&
    typed.from <= typed.to;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} maw={480}>
        <TextInput
          type="date"
          label="From"
          value={typed.from}
          max={typed.to}
          onChange={(e) => setTyped({ ...typed, from: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label="To"
          value={typed.to}
          min={typed.from}
          onChange={(e) => setTyped({ ...typed, to: e.currentTarget.value })}
          error={valid ? undefined : 'The period must start on or before its last day'}
        />
      </SimpleGrid>
      <Group gap="xs">
        <Button onClick={() => setViewed(typed)} disabled={!valid} loading={query.isFetching}>
          View
        </Button>
        <DownloadButton
          disabled={!valid}
          download={() => downloadStatement(organisationId, kraPin, typed, 'pdf')}
        >
          Download PDF
        </DownloadButton>
        <DownloadButton
          disabled={!valid}
          download={() => downloadStatement(organisationId, kraPin, typed, 'csv')}
        >
          Download CSV
        </DownloadButton>
        <Anchor component={Link} to={paths.organisationInvoices(organisationId)} size="sm">
          Its invoices
        </Anchor>
      </Group>
      {viewed && (
        <ListState
          isLoading={query.isPending}
          isError={query.isError}
          isEmpty={false}
          emptyText=""
          errorText="The statement could not be loaded."
        />
      )}
      {viewed && query.data && <StatementTable statement={query.data} />}
    </Stack>
  );
}
