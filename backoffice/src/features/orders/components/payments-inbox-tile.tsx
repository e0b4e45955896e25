import { Anchor, Card, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { usePaymentInboxCount } from '../api/mpesa-payments';

/** "Payments to match" (dashboard and the staff's orders page): how many wait, leading to the inbox. */
export function PaymentsInboxTile() {
  const query = usePaymentInboxCount();
  return (
    <Anchor component={Link} to={paths.managePayments} underline="never" c="inherit">
      <Card withBorder h="100%">
        <Text size="sm" c="dimmed">
          Payments to match
        </Text>
        <Text fw={700} size="xl" data-testid="tile-payments-to-match">
          {query.isPending ? '…' : query.isError ? '—' : (query.data?.waiting ?? '—')}
        </Text>
      </Card>
    </Anchor>
  );
}
