import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDateTime, formatMoney, type TillCashUpView } from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { useSessionStore } from '../../../lib/session-store';
import { downloadCashUp, useCashUp, useReopenSession } from '../api/sessions';
import {
  ApprovedTable,
  AttentionTable,
  CloseDayForm,
  MethodsTable,
  SellersTable,
} from '../components/cash-up';
import { TillQueryState } from '../components/till-query-state';

function Downloads({ id }: { id: string }) {
  const [busy, setBusy] = useState<'pdf' | 'csv' | null>(null);
  const download = async (kind: 'pdf' | 'csv') => {
    setBusy(kind);
    try {
      await downloadCashUp(id, kind);
    } catch (e) {
      notifications.show({ color: 'red', title: 'Error', message: (e as Error).message });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs">
      <Button
        size="md"
        variant="default"
        loading={busy === 'pdf'}
        onClick={() => void download('pdf')}
      >
        Download PDF
      </Button>
      <Button
        size="md"
        variant="default"
        loading={busy === 'csv'}
        onClick={() => void download('csv')}
      >
        Download CSV
      </Button>
    </Group>
  );
}

function Reopen({ id }: { id: string }) {
  const mutation = useReopenSession(id);
  return (
    <Button
      size="md"
      variant="outline"
      loading={mutation.isPending}
      onClick={() => mutation.mutate(undefined)}
    >
      Reopen this session
    </Button>
  );
}

function SessionSummary({ cashUp }: { cashUp: TillCashUpView }) {
  const s = cashUp.session;
  return (
    <Text size="sm" c="dimmed">
      {s.staffName} · opened {formatDateTime(s.openedAt)} with a float of {formatMoney(s.float)}
      {s.closedAt ? ` · closed ${formatDateTime(s.closedAt)}` : ''} · {s.sales}{' '}
      {s.sales === 1 ? 'sale' : 'sales'}, {formatMoney(s.total)}
      {s.reopened.map((r) => ` · reopened by ${r.byName} ${formatDateTime(r.at)}`).join('')}
    </Text>
  );
}

/**
 * /till/sessions/:id: a session's cash-up (expected against counted by method, who sold what,
 * voids and refunds), its PDF and CSV; its clerk closes it here, an admin reopens a closed one.
 */
export function TillSessionRoute() {
  const { id = '' } = useParams();
  const user = useSessionStore((s) => s.user);
  const query = useCashUp(id);
  if (query.isPending) return <PageLoader />;
  if (!query.data)
    return (
      <TillQueryState
        query={query}
        isEmpty={false}
        emptyText=""
        errorTitle="The cash-up could not be loaded"
      />
    );
  const cashUp = query.data;
  const { session } = cashUp;
  const open = session.state === 'open';
  return (
    <Stack>
      <Anchor component={Link} to={user?.role === 'admin' ? paths.tillSessions : paths.till}>
        ← {user?.role === 'admin' ? 'All sessions' : 'Back to the till'}
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>Cash-up</Title>
        <Badge size="lg" color={open ? 'green' : 'gray'}>
          {open ? 'Open' : 'Closed'}
        </Badge>
      </Group>
      <SessionSummary cashUp={cashUp} />
      <Group justify="space-between" wrap="wrap">
        <Downloads id={id} />
        {!open && user?.role === 'admin' && <Reopen id={id} />}
      </Group>
      {open && session.staffId !== user?._id && (
        <Alert color="yellow">Only {session.staffName} closes this session.</Alert>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Stack>
          <Card withBorder padding="md">
            <Title order={3} mb="xs">
              Expected and counted
            </Title>
            <MethodsTable cashUp={cashUp} />
          </Card>
          {open && session.staffId === user?._id && <CloseDayForm cashUp={cashUp} />}
        </Stack>
        <Stack>
          <Card withBorder padding="md">
            <Title order={3} mb="xs">
              Who sold what
            </Title>
            <SellersTable cashUp={cashUp} />
          </Card>
          <Card withBorder padding="md">
            <Stack>
              <ApprovedTable title="Voids" rows={cashUp.voids} />
              <ApprovedTable title="Refunds" rows={cashUp.refunds} />
              <AttentionTable rows={cashUp.attention ?? []} />
            </Stack>
          </Card>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
