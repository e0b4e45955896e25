import { Anchor, Badge, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { formatDateTime, formatMoney, shopToday } from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSessions } from '../api/sessions';
import { ResetPinForm } from '../components/reset-pin-form';
import { TillQueryState } from '../components/till-query-state';

/**
 * /till/sessions (admins): every till session of a shop day, each opening its cash-up; and a staff
 * member's new till PIN (a locked one is set again here).
 */
export function TillSessionsRoute() {
  const [day, setDay] = useState(shopToday());
  const query = useSessions(day);
  const sessions = query.data ?? [];
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1}>Till sessions</Title>
        <TextInput
          type="date"
          label="Day"
          value={day}
          onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)}
        />
      </Group>
      <TillQueryState
        query={query}
        isEmpty={sessions.length === 0}
        emptyText="No till sessions on this day."
        errorTitle="The sessions could not be loaded"
      />
      {sessions.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Till sessions" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Clerk</Table.Th>
                <Table.Th>Opened</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th ta="right">Sales</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((s) => (
                <Table.Tr key={s._id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.tillSession(s._id)}>
                      {s.staffName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDateTime(s.openedAt)}</Table.Td>
                  <Table.Td>
                    <Badge color={s.state === 'open' ? 'green' : 'gray'}>
                      {s.state === 'open' ? 'Open' : 'Closed'}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{s.sales}</Table.Td>
                  <Table.Td ta="right">{formatMoney(s.total)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Title order={3} mt="lg">
        A staff member’s till PIN
      </Title>
      <ResetPinForm />
    </Stack>
  );
}
