import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  AUDIT_EXPORT_LIMIT,
  BACKOFFICE_MESSAGES,
  describeAuditActivity,
  describeTotal,
  formatDateTime,
  PAGE_SIZE,
} from '@spc/shared-contracts';
import { useSearchParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { readAuditSearch, writeAuditSearch, type AuditFilters } from '../api/audit-query';
import { useExportAuditLogs } from '../api/export-audit-logs';
import { useAuditFilters } from '../api/get-audit-filters';
import { useAuditLogs, type AuditLog } from '../api/get-audit-logs';
import { AuditFiltersForm } from '../components/audit-filters-form';

const activityOf = (log: AuditLog) => describeAuditActivity(log.action, log.target?.label);

/**
 * /admin/audit-trails: #, user, role, activity (in words), timestamp, message; filtered by person,
 * role, activity and days, with customers' sign-ins hidden unless asked, and a CSV of the filtered
 * trail. The filters and the page live in the address.
 */
export function AuditTrailsRoute() {
  const [params, setParams] = useSearchParams();
  const { filters, page } = readAuditSearch(params);
  const query = useAuditLogs(filters, page);
  const options = useAuditFilters();
  const exporter = useExportAuditLogs();
  const logs = query.data?.logs ?? [];
  const total = query.data?.total ?? 0;
  const orMore = query.data?.totalIsLowerBound ?? false;
  // Cards on a phone, the table from 48em; the table unless the screen is known to be narrow.
  const narrow = useMediaQuery('(max-width: 47.99em)', false);

  const setFilters = (next: AuditFilters) => setParams(writeAuditSearch(next, 1));
  const setPage = (next: number) => setParams(writeAuditSearch(filters, next));

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Audit trails</Title>
        <Button
          variant="light"
          onClick={() => exporter.mutate(filters)}
          loading={exporter.isPending}
          disabled={!query.isSuccess || total === 0}
        >
          Export CSV
        </Button>
      </Group>
      <AuditFiltersForm
        filters={filters}
        onChange={setFilters}
        people={options.data?.people ?? []}
        actions={options.data?.actions ?? []}
      />
      {query.isSuccess && (
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="audit-count">
          {describeTotal(total, orMore, { one: 'entry', many: 'entries' })}
          {total > AUDIT_EXPORT_LIMIT || (orMore && total >= AUDIT_EXPORT_LIMIT)
            ? ` (an export holds the newest ${AUDIT_EXPORT_LIMIT.toLocaleString('en-US')}; narrow the dates for the rest)`
            : orMore
              ? ` (an export holds the newest ${AUDIT_EXPORT_LIMIT.toLocaleString('en-US')} at most)`
              : ''}
        </Text>
      )}
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && logs.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noAudits}
      />
      {logs.length > 0 && !narrow && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Activity</Table.Th>
                <Table.Th>Timestamp</Table.Th>
                <Table.Th>Message</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {logs.map((log, i) => (
                <Table.Tr key={log._id}>
                  <Table.Td>{(page - 1) * PAGE_SIZE.auditLogs + i + 1}</Table.Td>
                  <Table.Td>{log.performedBy.fullName}</Table.Td>
                  <Table.Td tt="capitalize">{log.performedBy.role}</Table.Td>
                  <Table.Td title={log.action}>{activityOf(log)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(log.timestamp)}
                  </Table.Td>
                  <Table.Td>{log.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {logs.length > 0 && narrow && (
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
          {logs.map((log) => (
            <Card key={log._id} withBorder padding="sm" component="li">
              <Text fw={600}>{activityOf(log)}</Text>
              <Text size="sm">
                {log.performedBy.fullName}{' '}
                <Text span c="dimmed" tt="capitalize">
                  · {log.performedBy.role}
                </Text>
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(log.timestamp)}
              </Text>
              <Text size="sm" mt={4}>
                {log.message}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
      <PaginationControl
        page={page}
        totalPages={query.data?.totalPages ?? 0}
        total={query.data}
        onChange={setPage}
      />
    </Stack>
  );
}
