import { Alert, Anchor, Button, Card, Flex, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import {
  ETIMS_OFFICE_MESSAGES as M,
  ETIMS_TAX_TYPE_LABELS,
  ETIMS_TAX_TYPES,
  formatDate,
  shopToday,
  type EtimsSummaryFigures,
  type EtimsSummaryResponse,
} from '@spc/shared-contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { calendarLabels } from '../../../components/calendar-labels';
import { DownloadButton } from '../../../components/download-button';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { downloadEtimsSummaryCsv, useEtimsSummary } from '../api/get-etims-summary';

const ISO = 'YYYY-MM-DD';
const kes = (n: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const nowrap = { whiteSpace: 'nowrap' } as const;

/** A day's (or the totals') cells: counts, then taxable and tax by type, then the total. */
function FigureCells({ f }: { f: EtimsSummaryFigures }) {
  return (
    <>
      <Table.Td ta="right">{f.signed}</Table.Td>
      <Table.Td ta="right">{f.creditNotes}</Table.Td>
      <Table.Td ta="right" c={f.pending ? 'orange' : undefined}>
        {f.pending}
      </Table.Td>
      <Table.Td ta="right" c={f.failed ? 'red' : undefined}>
        {f.failed}
      </Table.Td>
      <Table.Td ta="right">{f.waiting}</Table.Td>
      {/* The tax under the taxable amount: seven-figure days still fit beside the sidebar. */}
      {ETIMS_TAX_TYPES.map((t) => (
        <Table.Td key={t} ta="right" style={nowrap}>
          {kes(f.taxByType[t].taxable)}
          <Text span size="xs" c="dimmed" display="block">
            {' '}
            / {kes(f.taxByType[t].tax)}
          </Text>
        </Table.Td>
      ))}
      <Table.Td ta="right" style={nowrap}>
        {kes(f.total)}
      </Table.Td>
    </>
  );
}

/** On a computer: a row per day, a column per figure, the totals at the foot. */
function DaysTable({ summary }: { summary: EtimsSummaryResponse }) {
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table striped verticalSpacing="xs" horizontalSpacing={6} fz="sm" aria-label="eTIMS per day">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day</Table.Th>
            <Table.Th ta="right">Signed</Table.Th>
            <Table.Th ta="right">Credit notes</Table.Th>
            <Table.Th ta="right">Pending</Table.Th>
            <Table.Th ta="right">Failed</Table.Th>
            <Table.Th ta="right">Queued</Table.Th>
            {/* Headers wrap ("C zero-rated" on two lines): the columns are as wide as their figures. */}
            {ETIMS_TAX_TYPES.map((t) => (
              <Table.Th key={t} ta="right">
                {ETIMS_TAX_TYPE_LABELS[t]}
              </Table.Th>
            ))}
            <Table.Th ta="right">Total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.days.map((d) => (
            <Table.Tr key={d.date}>
              <Table.Td style={nowrap}>{formatDate(d.date)}</Table.Td>
              <FigureCells f={d} />
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Td>Total</Table.Td>
            <FigureCells f={summary.totals} />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * On a phone, a day's (or the totals') figures as a card: the counts on one line, then the taxable
 * / tax of each type that is not zero, then the total; nothing scrolls sideways.
 */
function FigureCard({ title, f }: { title: string; f: EtimsSummaryFigures }) {
  const types = ETIMS_TAX_TYPES.filter((t) => f.taxByType[t].taxable || f.taxByType[t].tax);
  return (
    <Card withBorder padding="sm" component="article" aria-label={title}>
      <Text fw={700}>{title}</Text>
      <Text size="sm">
        Signed {f.signed} · Credit notes {f.creditNotes} ·{' '}
        <Text span c={f.pending ? 'orange' : undefined}>
          Pending {f.pending}
        </Text>{' '}
        ·{' '}
        <Text span c={f.failed ? 'red' : undefined}>
          Failed {f.failed}
        </Text>{' '}
        · Queued {f.waiting}
      </Text>
      {types.map((t) => (
        <Group key={t} justify="space-between" gap="xs">
          <Text size="sm">{ETIMS_TAX_TYPE_LABELS[t]}</Text>
          <Text size="sm" style={nowrap}>
            {kes(f.taxByType[t].taxable)}
            <Text span size="xs" c="dimmed">
              {' '}
              / {kes(f.taxByType[t].tax)}
            </Text>
          </Text>
        </Group>
      ))}
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Total
        </Text>
        <Text size="sm" fw={600} style={nowrap}>
          {kes(f.total)}
        </Text>
      </Group>
    </Card>
  );
}

/**
 * /manage/etims/summary, "Daily eTIMS summary": per shop day (Africa/Nairobi) of the documents'
 * tax point, how many KRA signed, how many wait (pending, failed, queued), and the signed
 * documents' taxable amounts and tax by type A–E, credit notes subtracting; and its CSV.
 */
export function EtimsSummaryRoute() {
  const [range, setRange] = useState<DatesRangeValue<string>>(() => [
    dayjs(shopToday()).subtract(6, 'day').format(ISO),
    shopToday(),
  ]);
  const wide = useMediaQuery('(min-width: 48em)', true);
  const [from, to] = range;
  const complete = Boolean(from && to);
  const start = dayjs(from ?? undefined).format(ISO);
  const end = dayjs(to ?? from ?? undefined).format(ISO);
  const query = useEtimsSummary(start, end, complete);
  const summary = query.data;
  const empty = summary
    ? summary.totals.signed +
        summary.totals.pending +
        summary.totals.failed +
        summary.totals.waiting ===
      0
    : false;
  return (
    <Stack>
      {/* On a phone the title, then the range and the download under it: nothing sideways. */}
      <Flex
        direction={{ base: 'column', sm: 'row' }}
        justify="space-between"
        align={{ base: 'flex-start', sm: 'flex-end' }}
        gap="md"
      >
        <Stack gap={2}>
          <Title order={2}>Daily eTIMS summary</Title>
          <Anchor component={Link} to={paths.etims} size="sm">
            Back to the eTIMS queue
          </Anchor>
        </Stack>
        <Group align="flex-end">
          <DatePickerInput
            {...calendarLabels}
            type="range"
            label="Date range"
            valueFormat="DD/MM/YYYY"
            value={range}
            onChange={setRange}
            maxDate={dayjs().format(ISO)}
            miw={260}
          />
          <DownloadButton
            disabled={!complete || !summary}
            download={() => downloadEtimsSummaryCsv(start, end)}
          >
            Download CSV
          </DownloadButton>
        </Group>
      </Flex>
      {summary?.enabled === false && (
        <Alert color="gray" variant="light" role="status" title="eTIMS is off">
          {M.off}
        </Alert>
      )}
      <ListState
        isLoading={complete && query.isPending}
        isError={query.isError}
        isEmpty={Boolean(summary?.enabled) && empty}
        emptyText="No document was queued for KRA in these days"
        errorText="The eTIMS summary could not be loaded."
      />
      {query.isError && (
        <Group justify="center">
          <Button variant="default" loading={query.isFetching} onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {summary && !empty && (
        <>
          <Text size="sm" c="dimmed">
            By the day of each document’s tax point. Amounts in KES: taxable / tax of the signed
            documents, credit notes subtracted.
          </Text>
          {wide ? (
            <DaysTable summary={summary} />
          ) : (
            <Stack gap="xs">
              {summary.days.map((d) => (
                <FigureCard key={d.date} title={formatDate(d.date)} f={d} />
              ))}
              <FigureCard title="Total" f={summary.totals} />
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
