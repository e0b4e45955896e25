import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { formatDateTime, formatMoney, type TillSessionView } from '@spc/shared-contracts';
import { Link } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { useSessionStore } from '../../../lib/session-store';
import { useCurrentSession } from '../api/sessions';
import { CollectBooking } from '../components/collect-booking';
import { OpenTillFormCard } from '../components/open-till-form';
import { PinForm } from '../components/pin-form';
import { SalesList } from '../components/sales-list';
import { TillQueryState } from '../components/till-query-state';
import { TillSell } from '../components/till-sell';
import { TillStatusLine } from '../components/till-status-line';
import { OFFLINE_TEXTS, useOfflineSync, useOnline } from '../offline/offline-sync';

function SessionHeader({ session }: { session: TillSessionView }) {
  const role = useSessionStore((s) => s.user?.role);
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap">
      <div>
        <Title order={1}>Till</Title>
        <Text size="sm" c="dimmed">
          Open since {formatDateTime(session.openedAt)} · float {formatMoney(session.float)} ·{' '}
          {session.sales} {session.sales === 1 ? 'sale' : 'sales'}, {formatMoney(session.total)}
        </Text>
      </div>
      <Group gap="xs">
        {role === 'admin' && (
          <Button size="md" variant="default" component={Link} to={paths.tillSessions}>
            All sessions
          </Button>
        )}
        <Button
          size="md"
          variant="outline"
          color="red"
          component={Link}
          to={paths.tillSession(session._id)}
        >
          Close the day
        </Button>
      </Group>
    </Group>
  );
}

/**
 * /till: the gate's till, for a tablet or a phone in one hand. With no session open, the float
 * opens one; then selling, the session's sales (reprint, void, refund), collecting a booking
 * (its balance taken, its seedlings handed over) and the clerk's own PIN.
 */
export function TillRoute() {
  const query = useCurrentSession();
  const staffId = useSessionStore((s) => s.user?._id);
  const online = useOnline();
  useOfflineSync();
  const status = <TillStatusLine staffId={staffId} />;
  if (query.isPending)
    return (
      <Stack>
        {status}
        <PageLoader />
      </Stack>
    );
  if (query.isError)
    return (
      <Stack>
        {status}
        {online ? (
          <TillQueryState
            query={query}
            isEmpty={false}
            emptyText=""
            errorTitle="The till could not be loaded"
          />
        ) : (
          <Text>{OFFLINE_TEXTS.noSessionOffline}</Text>
        )}
      </Stack>
    );
  const session = query.data;
  if (!session)
    return (
      <Stack>
        {status}
        <Title order={1}>Till</Title>
        <OpenTillFormCard />
        <Title order={3}>My till PIN</Title>
        <PinForm />
      </Stack>
    );
  return (
    <Stack>
      {status}
      <SessionHeader session={session} />
      <Tabs defaultValue="sell">
        <Tabs.List grow>
          <Tabs.Tab value="sell" fz="md" py="md">
            Sell
          </Tabs.Tab>
          <Tabs.Tab value="sales" fz="md" py="md">
            Today’s sales
          </Tabs.Tab>
          <Tabs.Tab value="collect" fz="md" py="md">
            Collect a booking
          </Tabs.Tab>
          <Tabs.Tab value="pin" fz="md" py="md">
            My till PIN
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="sell" pt="md">
          <TillSell sessionId={session._id} />
        </Tabs.Panel>
        <Tabs.Panel value="sales" pt="md">
          <SalesList sessionId={session._id} />
        </Tabs.Panel>
        <Tabs.Panel value="collect" pt="md">
          <CollectBooking sessionId={session._id} />
        </Tabs.Panel>
        <Tabs.Panel value="pin" pt="md">
          <PinForm />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
