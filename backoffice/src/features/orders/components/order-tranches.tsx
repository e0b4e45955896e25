import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  canActOnTranche,
  formatDate,
  formatDateTime,
  shopToday,
  TRANCHE_RULES,
  TRANCHE_STATE_LABELS,
  trancheLabel,
  trancheLineWords,
  type Role,
  type TrancheState,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import { TrancheSignedNote } from './tranche-signed-note';
import {
  useOrderTranches,
  useTrancheSteps,
  type Tranche,
  type TrancheLineStanding,
} from '../api/tranches';
import { planBody, TrancheActions } from './tranche-actions';
import { TranchePlanForm } from './tranche-forms';

const units = (n: number) => n.toLocaleString('en-US');

export const TRANCHE_STATE_COLORS: Record<TrancheState, string> = {
  Planned: 'blue',
  Dispatched: 'yellow',
  Delivered: 'green',
  Cancelled: 'gray',
};

export function TrancheStateBadge({ state }: { state: TrancheState }) {
  return (
    <Badge variant="light" color={TRANCHE_STATE_COLORS[state]} style={{ flexShrink: 0 }}>
      {TRANCHE_STATE_LABELS[state]}
    </Badge>
  );
}

/** Where the order's lines stand: ordered, planned, on its way, delivered, left to plan. */
function LinesStanding({ lines }: { lines: TrancheLineStanding[] }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing={4} horizontalSpacing={6} fz="sm" aria-label="Where the lines stand">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th ta="right">Ordered</Table.Th>
            <Table.Th ta="right">Planned</Table.Th>
            <Table.Th ta="right">On its way</Table.Th>
            <Table.Th ta="right">Delivered</Table.Th>
            <Table.Th ta="right">To plan</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l) => (
            <Table.Tr key={`${l.productId}-${l.unitId}-${l.batchId ?? ''}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {l.productName} · {l.unitName}
                <Text size="xs" c="dimmed">
                  {l.batchId ? 'From a growing batch' : 'From ready stock'}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{units(l.quantity)}</Table.Td>
              <Table.Td ta="right">{units(l.planned)}</Table.Td>
              <Table.Td ta="right">{units(l.onTheWay)}</Table.Td>
              <Table.Td ta="right">{units(l.delivered)}</Table.Td>
              <Table.Td ta="right" fw={700}>
                {units(l.toPlan)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One line of a tranche: planned units, then what left and what arrived, and why short. */
function TrancheLine({ line }: { line: Tranche['lines'][number] }) {
  const short =
    line.delivered !== null && line.dispatched !== null && line.delivered < line.dispatched;
  return (
    <li>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {trancheLineWords(line, line.quantity)}
        {line.dispatched !== null && line.dispatched !== line.quantity
          ? ` · ${units(line.dispatched)} left`
          : ''}
        {line.delivered !== null && ` · ${units(line.delivered)} delivered`}
      </Text>
      {short && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <strong>Short by {units(line.dispatched! - line.delivered!)}:</strong> {line.shortReason}
        </Text>
      )}
    </li>
  );
}

/** One tranche: its number and state, site and contact, day, lines, signature and steps. */
function TrancheItem({
  tranche,
  role,
  orderLines,
}: {
  tranche: Tranche;
  role: Role;
  orderLines: TrancheLineStanding[];
}) {
  const label = trancheLabel(tranche.number);
  const { site } = tranche;
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Tranche ${label}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Title order={4} size="h5">
            {label}
          </Title>
          <TrancheStateBadge state={tranche.state} />
        </Group>
        <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
          {formatDate(`${tranche.date}T12:00:00Z`)}
        </Text>
      </Group>
      <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
        <strong>{site.name}</strong>, {[site.subCounty, site.county].filter(Boolean).join(', ')}
      </Text>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        Contact {site.contact.name} ·{' '}
        <Anchor href={`tel:${site.contact.phone}`} size="sm" underline="always">
          {site.contact.phone}
        </Anchor>
      </Text>
      <ul style={{ margin: '6px 0', paddingLeft: 18 }}>
        {tranche.lines.map((l) => (
          <TrancheLine key={`${l.productId}-${l.unitId}-${l.batchId ?? ''}`} line={l} />
        ))}
      </ul>
      <Text size="xs" c="dimmed">
        {units(tranche.seedlings)} seedlings
        {tranche.dispatchedAt && ` · dispatched ${formatDateTime(tranche.dispatchedAt)}`}
        {tranche.signedBy && ` · signed by ${tranche.signedBy} ${formatDateTime(tranche.signedAt)}`}
        {tranche.cancelledAt && ` · cancelled ${formatDateTime(tranche.cancelledAt)}`}
      </Text>
      <TrancheSignedNote tranche={tranche} role={role} />
      {tranche.state !== 'Cancelled' && (
        <Group mt="xs">
          <TrancheActions tranche={tranche} role={role} orderLines={orderLines} />
        </Group>
      )}
    </Paper>
  );
}

/**
 * The tranches of an order from a quotation (issue 43): where each line stands, the tranches by
 * number with the steps the rules table gives the signed-in role, and planning a new one.
 */
export function OrderTranches({ orderId, role }: { orderId: string; role: Role }) {
  const query = useOrderTranches(orderId);
  const { plan } = useTrancheSteps(orderId);
  const [planning, setPlanning] = useState(false);
  // Planning takes the roles that change a tranche (the API's plan route: staff and admins).
  const canPlan = TRANCHE_RULES.change.by.includes(role);
  const data = query.data;
  const lines = data?.lines ?? [];
  const left = lines.some((l) => l.toPlan > 0);
  const formLines = lines.map((l) => ({ words: trancheLineWords(l, l.quantity), max: l.toPlan }));
  const today = shopToday();
  return (
    <Card withBorder component="section" aria-labelledby="tranches-title">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={3} size="h4" id="tranches-title">
          Tranches
        </Title>
        {canPlan && data && (
          <Button
            size="sm"
            onClick={() => setPlanning(true)}
            disabled={!left || plan.isPending}
            loading={plan.isPending}
          >
            Plan a tranche
          </Button>
        )}
      </Group>
      {!data ? (
        <Stack gap="xs" align="center">
          <ListState
            isLoading={query.isPending}
            isError={query.isError}
            isEmpty={false}
            emptyText=""
            errorText="The tranches could not be loaded."
          />
          {query.isError && (
            <Button
              variant="default"
              size="xs"
              loading={query.isFetching}
              onClick={() => void query.refetch()}
            >
              Try again
            </Button>
          )}
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Delivered in parts to the organisation's planting sites, each load with a delivery note
            to be signed.
            {canPlan && !left && ' Every unit of the order is in a tranche.'}
          </Text>
          <LinesStanding lines={lines} />
          {data.tranches.length === 0 ? (
            <Text c="dimmed" ta="center" py="md">
              No tranches yet.
              {canPlan && left && ' Plan the first load to a site.'}
            </Text>
          ) : (
            data.tranches.map((t) => (
              <TrancheItem key={t.number} tranche={t} role={role} orderLines={lines} />
            ))
          )}
          {!canActOnTranche('dispatch', 'Planned', role) && (
            <Text size="xs" c="dimmed">
              Loads are dispatched and signed for by the dispatch staff.
            </Text>
          )}
        </Stack>
      )}
      <Modal
        opened={planning}
        onClose={plan.isPending ? () => undefined : () => setPlanning(false)}
        title={`Plan a tranche · order ${data?.purchaseNumber ?? ''}`}
        centered
        size="lg"
      >
        <TranchePlanForm
          lines={formLines}
          today={today}
          defaultValues={{
            site: { name: '', county: '', subCounty: '', contact: { name: '', phone: '' } },
            date: today,
            quantities: lines.map(() => undefined),
          }}
          submitLabel="Plan tranche"
          pending={plan.isPending}
          onSubmit={(values) =>
            plan.mutate(planBody(values, lines), { onSuccess: () => setPlanning(false) })
          }
        />
      </Modal>
    </Card>
  );
}
