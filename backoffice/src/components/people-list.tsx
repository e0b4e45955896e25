import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface Person {
  _id: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  role: string;
}

/** Users and staff: a table on wide screens (name, role, email, phone) and cards on small ones. */
export function PeopleList<P extends Person>({
  people,
  actions,
  cardLink,
}: {
  people: P[];
  actions?: (person: P) => ReactNode;
  cardLink?: (person: P) => string;
}) {
  const wide = useMediaQuery('(min-width: 48em)', true);
  if (!wide) {
    return (
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {people.map((p) => (
          <Card key={p._id} withBorder>
            <Stack gap={4}>
              {cardLink ? (
                <Anchor component={Link} to={cardLink(p)} fw={600}>
                  {p.fullName}
                </Anchor>
              ) : (
                <Text fw={600}>{p.fullName}</Text>
              )}
              <Text size="sm" tt="capitalize" c="dimmed">
                {p.role}
              </Text>
              <Text size="sm">{p.email}</Text>
              <Text size="sm">{p.phoneNumber}</Text>
              {actions && <Group gap="xs">{actions(p)}</Group>}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Email Address</Table.Th>
            <Table.Th>Phone Number</Table.Th>
            {actions && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {people.map((p) => (
            <Table.Tr key={p._id}>
              <Table.Td>{p.fullName}</Table.Td>
              <Table.Td tt="capitalize">{p.role}</Table.Td>
              <Table.Td>{p.email}</Table.Td>
              <Table.Td>{p.phoneNumber}</Table.Td>
              {actions && (
                <Table.Td>
                  <Group gap="xs">{actions(p)}</Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
