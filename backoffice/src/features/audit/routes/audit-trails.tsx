import { Stack, Table, Title } from '@mantine/core';
import { BACKOFFICE_MESSAGES, formatDateTime, PAGE_SIZE } from '@spc/shared-contracts';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { useAuditLogs } from '../api/get-audit-logs';

/** /admin/audit-trails: #, user, role, activity, timestamp, message. */
export function AuditTrailsRoute() {
  const [page, setPage] = useState(1);
  const query = useAuditLogs(page);
  const logs = query.data?.logs ?? [];
  return (
    <Stack>
      <Title order={2}>Audit trails</Title>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && logs.length === 0}
        emptyText={BACKOFFICE_MESSAGES.noAudits}
      />
      {logs.length > 0 && (
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
                  <Table.Td>{log.action}</Table.Td>
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
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}
