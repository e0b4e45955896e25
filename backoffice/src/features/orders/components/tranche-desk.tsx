import {
  Anchor,
  Badge,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import {
  formatDate,
  TRANCHE_QUEUE_LABELS,
  TRANCHE_QUEUES,
  trancheLabel,
  type Role,
  type TrancheQueue,
} from '@spc/shared-contracts';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useTrancheList, useTrancheQueue, type TrancheListItem } from '../api/tranches';
import { TrancheActions } from './tranche-actions';
import { TrancheStateBadge } from './order-tranches';

/** The desk's tranche bucket in the URL (`?tranches=`), so a tile or a shared link opens it. */
export const TRANCHE_QUEUE_PARAM = 'tranches';
const PAGE_PARAM = 'tranchesPage';

const EMPTY: Record<TrancheQueue, string> = {
  toDispatch: 'No tranches to dispatch.',
  upcoming: 'No tranches planned later.',
  awaitingSignature: 'No tranches awaiting the signed note.',
};

const units = (n: number) => n.toLocaleString('en-US');

/** One tranche of the desk: its order (a link), organisation, site, day, load and steps. */
function TrancheRow({ tranche, role }: { tranche: TrancheListItem; role: Role }) {
  const label = trancheLabel(tranche.number);
  const { site } = tranche;
  return (
    <Paper withBorder p="sm" component="article" aria-label={`${tranche.purchaseNumber} ${label}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Anchor
          component={Link}
          to={paths.orderDetail(role, tranche.orderId)}
          fw={700}
          style={{ overflowWrap: 'anywhere' }}
        >
          {tranche.purchaseNumber} · {label}
        </Anchor>
        <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
          {formatDate(`${tranche.date}T12:00:00Z`)}
        </Text>
      </Group>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {tranche.organisationName}
      </Text>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {site.name}, {[site.subCounty, site.county].filter(Boolean).join(', ')} · LPO{' '}
        {tranche.lpoNumber}
      </Text>
      <Group justify="space-between" mt={6} gap="xs">
        <Group gap="xs">
          <TrancheStateBadge state={tranche.state} />
          <Text size="sm">{units(tranche.seedlings)} seedlings</Text>
        </Group>
        <TrancheActions tranche={tranche} role={role} />
      </Group>
    </Paper>
  );
}

/**
 * The dispatch desk's tranches (issue 43), a unit of work like an order: tabs for the loads to
 * dispatch, those planned later and those awaiting their signed note, each with its count.
 */
export function TrancheDesk({ role }: { role: Role }) {
  const [params, setParams] = useSearchParams();
  const asked = params.get(TRANCHE_QUEUE_PARAM);
  const queue: TrancheQueue = (TRANCHE_QUEUES as readonly string[]).includes(asked ?? '')
    ? (asked as TrancheQueue)
    : 'toDispatch';
  const page = Math.max(1, Number(params.get(PAGE_PARAM)) || 1);
  const counts = useTrancheQueue();
  const list = useTrancheList(queue, page);
  const tranches = list.data?.tranches ?? [];
  const select = (next: TrancheQueue, nextPage = 1) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        q.set(TRANCHE_QUEUE_PARAM, next);
        if (nextPage > 1) q.set(PAGE_PARAM, String(nextPage));
        else q.delete(PAGE_PARAM);
        return q;
      },
      { replace: true },
    );
  return (
    <Card withBorder component="section" aria-labelledby="tranche-desk-title" p="sm">
      <Title order={3} size="h4" id="tranche-desk-title" mb="xs">
        Tranches
      </Title>
      <Tabs value={queue} onChange={(v) => v && select(v as TrancheQueue)}>
        <Tabs.List aria-label="Tranches to handle">
          {TRANCHE_QUEUES.map((q) => {
            const n = counts.data?.counts?.[q];
            return (
              <Tabs.Tab
                key={q}
                value={q}
                data-testid={`tranche-queue-${q}`}
                rightSection={
                  <Badge
                    size="sm"
                    variant={q === queue ? 'filled' : 'light'}
                    color={counts.isError ? 'red' : 'green'}
                    aria-label={`${n ?? (counts.isError ? 'unknown' : 'loading')} tranches`}
                  >
                    {n ?? (counts.isError ? '—' : '…')}
                  </Badge>
                }
              >
                {TRANCHE_QUEUE_LABELS[q]}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        {TRANCHE_QUEUES.map((q) => (
          <Tabs.Panel key={q} value={q} pt="sm">
            {q === queue && (
              <Stack gap="xs">
                <ListState
                  isLoading={list.isPending}
                  isError={list.isError}
                  isEmpty={list.isSuccess && tranches.length === 0}
                  emptyText={EMPTY[q]}
                />
                {tranches.map((t) => (
                  <TrancheRow key={`${t.orderId}-${t.number}`} tranche={t} role={role} />
                ))}
                <PaginationControl
                  page={page}
                  totalPages={list.data?.totalPages ?? 0}
                  total={list.data && { total: list.data.total, totalIsLowerBound: false }}
                  noun={{ one: 'tranche', many: 'tranches' }}
                  onChange={(p) => select(queue, p)}
                />
              </Stack>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Card>
  );
}

/** The desk's tranche buckets as dashboard tiles, each opening the orders page on that bucket. */
export function TrancheTiles({ ordersPath }: { ordersPath: string }) {
  const counts = useTrancheQueue();
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} aria-label="Tranches to handle">
      {TRANCHE_QUEUES.map((q) => (
        <Anchor
          key={q}
          component={Link}
          to={`${ordersPath}?${TRANCHE_QUEUE_PARAM}=${q}`}
          underline="never"
          c="inherit"
        >
          <Card withBorder h="100%">
            <Text size="sm" c="dimmed">
              {TRANCHE_QUEUE_LABELS[q]}
            </Text>
            <Text fw={700} size="xl" data-testid={`tranche-tile-${q}`}>
              {counts.data?.counts?.[q] ?? (counts.isError ? '—' : '…')}
            </Text>
          </Card>
        </Anchor>
      ))}
    </SimpleGrid>
  );
}
