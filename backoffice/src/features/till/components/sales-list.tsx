import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import {
  formatDateTime,
  formatMoney,
  STOCK_SHORT_LABEL,
  TILL_ATTENTION_LABELS,
  TILL_PAYMENT_LABELS,
  type TillSaleView,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSales } from '../api/sales';
import { ApprovalDialog, leftOfSale, type ApprovalKind } from './approval-dialog';
import { useOnline } from '../offline/offline-sync';
import { SettleDialog } from './settle-dialog';
import { TillQueryState } from './till-query-state';

export const SALE_STATE_LABELS: Record<TillSaleView['state'], { label: string; color: string }> = {
  paid: { label: 'Paid', color: 'green' },
  'awaiting-payment': { label: 'Waiting for M-Pesa', color: 'yellow' },
  'needs-attention': { label: 'Needs attention', color: 'red' },
  voided: { label: 'Voided', color: 'gray' },
  refunded: { label: 'Refunded', color: 'orange' },
  cancelled: { label: 'Cancelled (refused)', color: 'gray' },
};

function SaleCard({
  sale,
  onAction,
  onSettle,
}: {
  sale: TillSaleView;
  onAction: (kind: ApprovalKind) => void;
  onSettle: () => void;
}) {
  const state = SALE_STATE_LABELS[sale.state];
  // A sale waiting on a declined M-Pesa prompt is voided too: its cash part back, its stock returned.
  const canVoid =
    (sale.state === 'paid' || sale.state === 'awaiting-payment') && sale.refunded === 0;
  const canRefund = (sale.state === 'paid' || sale.state === 'refunded') && leftOfSale(sale) > 0;
  return (
    <Card withBorder padding="sm" aria-label={`Sale ${sale.purchaseNumber}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text fw={700}>{sale.purchaseNumber}</Text>
          <Text size="sm" c="dimmed">
            {formatDateTime(sale.at)} · {sale.sellerName}
          </Text>
        </div>
        <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
          <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
            {formatMoney(sale.total)}
          </Text>
          <Badge color={state.color}>{state.label}</Badge>
        </Stack>
      </Group>
      <Text size="sm" mt={4}>
        {sale.lines.map((l) => `${l.quantity} × ${l.unitName} ${l.name}`).join(', ')}
      </Text>
      <Text size="sm" c="dimmed">
        {sale.payments
          .map((p) => `${TILL_PAYMENT_LABELS[p.method]} ${formatMoney(p.amount)}`)
          .join(' + ')}
        {sale.refunded > 0 ? ` · ${formatMoney(sale.refunded)} refunded` : ''}
      </Text>
      {sale.offline && (
        <Text size="sm" c="dimmed">
          Sold offline {formatDateTime(sale.offline.soldAt)}
        </Text>
      )}
      {sale.needsAttention && (
        <Stack gap={2} mt={4} data-testid="sale-attention">
          {sale.needsAttention.reasons.map((r) => (
            <Text key={r} size="sm" c="red" fw={600}>
              {TILL_ATTENTION_LABELS[r]}
              {sale.needsAttention?.code ? ` (${sale.needsAttention.code})` : ''}
            </Text>
          ))}
          <Text size="sm">Unpaid: {formatMoney(sale.needsAttention.unpaid)}</Text>
        </Stack>
      )}
      {sale.short && (
        <Group gap={6} mt={4} wrap="nowrap" align="flex-start" data-testid="sale-short">
          <Badge color="orange" variant="filled" style={{ flexShrink: 0 }}>
            Short
          </Badge>
          <Text size="sm">{STOCK_SHORT_LABEL}</Text>
        </Group>
      )}
      <Group mt="xs" gap="xs">
        <Button size="md" variant="light" component={Link} to={paths.tillReceipt(sale.orderId)}>
          Reprint
        </Button>
        {sale.state === 'needs-attention' && sale.needsAttention && (
          <Button size="md" color="red" onClick={onSettle}>
            Settle
          </Button>
        )}
        {canVoid && (
          <Button size="md" variant="default" color="red" onClick={() => onAction('void')}>
            Void
          </Button>
        )}
        {canRefund && (
          <Button size="md" variant="default" onClick={() => onAction('refund')}>
            Refund
          </Button>
        )}
      </Group>
    </Card>
  );
}

/** The session's sales, newest first, each with its reprint, void and refund. */
export function SalesList({ sessionId }: { sessionId: string }) {
  const query = useSales(sessionId);
  const online = useOnline();
  const [action, setAction] = useState<{ kind: ApprovalKind; sale: TillSaleView } | null>(null);
  const [settling, setSettling] = useState<TillSaleView | null>(null);
  const sales = query.data ?? [];
  return (
    <Stack gap="sm">
      {!online && (
        <Text c="dimmed">
          Offline: the day’s sales as the back office has them show when the network returns. Sales
          made offline wait on this device (see the line at the top).
        </Text>
      )}
      <TillQueryState
        query={query}
        isEmpty={sales.length === 0}
        emptyText="No sales yet in this session."
        errorTitle="The day’s sales could not be loaded"
      />
      {sales.map((sale) => (
        <SaleCard
          key={sale.orderId}
          sale={sale}
          onAction={(kind) => setAction({ kind, sale })}
          onSettle={() => setSettling(sale)}
        />
      ))}
      {settling && (
        <SettleDialog sale={settling} sessionId={sessionId} onClose={() => setSettling(null)} />
      )}
      {action && (
        <ApprovalDialog kind={action.kind} sale={action.sale} onClose={() => setAction(null)} />
      )}
    </Stack>
  );
}
