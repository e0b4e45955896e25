import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { areaLabel, formatMoney, NURSERY_COLLECTION } from '@spc/shared-contracts';
import { useState } from 'react';
import { ConfirmModal, confirmQuestion } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import { useDeleteDeliveryZone } from '../api/delete-delivery-zone';
import { useDeliveryZones, type DeliveryZone } from '../api/get-delivery-zones';
import { DeliveryZoneModal } from '../components/delivery-zone-modal';

const ksh = (n: number) => (n === 0 ? 'Free' : formatMoney(n, 'KSH'));
const dayCount = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** /admin/delivery-zones: the shop's delivery zones with their fees and days, and collection. */
export function DeliveryZonesRoute() {
  const query = useDeliveryZones();
  const remove = useDeleteDeliveryZone();
  const [editing, setEditing] = useState<DeliveryZone | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<DeliveryZone | null>(null);
  const zones = query.data?.zones ?? [];
  const fallback = query.data?.fallback;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Delivery zones</Title>
        <Button onClick={() => setEditing(null)}>add delivery zone</Button>
      </Group>
      <Text size="sm" c="dimmed">
        A place pays the fee of the zone that lists its sub-county, else of the zone that lists its
        county, else the rest-of-Kenya terms. A place can be in one zone only.
      </Text>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && zones.length === 0}
        emptyText="No delivery zones yet: all of Kenya is delivered at KSH 0 in 3 days."
      />
      {zones.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped withTableBorder aria-label="Delivery zones">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Zone</Table.Th>
                <Table.Th>Covers</Table.Th>
                <Table.Th>Fee</Table.Th>
                <Table.Th>Delivery time</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {zones.map((zone) => (
                <Table.Tr key={zone._id}>
                  <Table.Td fw={600}>{zone.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {zone.areas.map((a) => (
                        <Badge key={areaLabel(a)} variant="light" tt="none">
                          {areaLabel(a)}
                        </Badge>
                      ))}
                      {zone.restOfKenya && (
                        <Badge variant="outline" tt="none">
                          Rest of Kenya
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{ksh(zone.fee)}</Table.Td>
                  <Table.Td>{dayCount(zone.days)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => setEditing(zone)}>
                        edit
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => setDeleting(zone)}
                      >
                        delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} type="media">
        {fallback && (
          <Card withBorder>
            <Text fw={700}>{fallback.name}</Text>
            <Text size="sm" c="dimmed">
              Where no zone applies
            </Text>
            <Text mt="xs">
              {ksh(fallback.fee)} · {dayCount(fallback.days)}
            </Text>
          </Card>
        )}
        <Card withBorder>
          <Text fw={700}>{NURSERY_COLLECTION.name}</Text>
          <Text size="sm" c="dimmed">
            Always offered at checkout
          </Text>
          <Text mt="xs">
            Free · ready after {dayCount(NURSERY_COLLECTION.days)} · {NURSERY_COLLECTION.address} ·{' '}
            {NURSERY_COLLECTION.openingHours}
          </Text>
        </Card>
      </SimpleGrid>
      <DeliveryZoneModal
        opened={editing !== undefined}
        zone={editing}
        onClose={() => setEditing(undefined)}
      />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => remove.mutateAsync(deleting!._id)}
        message={confirmQuestion('delete', 'delivery zone')}
      />
    </Stack>
  );
}
