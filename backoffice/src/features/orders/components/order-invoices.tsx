import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Table,
  Title,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatDate,
  formatMoney,
  trancheLabel,
  type InvoiceView,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState } from 'react';
import { Link } from 'react-router';
import { InvoiceStateBadge } from '../../../components/invoice-state-badge';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { useIssueInvoice, useOrderInvoices } from '../api/order-invoices';
import { useOrderTranches } from '../api/tranches';

const money = (n: number) => formatMoney(n, 'KES');
const nowrap = { whiteSpace: 'nowrap' } as const;
const WHOLE = 'whole';

/**
 * What may still be invoiced by hand: each delivered tranche without an invoice, or the whole
 * order while it has none (the API refuses what the organisation's terms or the deliveries do not
 * allow, in words the card shows).
 */
export function invoiceChoices(
  invoices: InvoiceView[],
  delivered: number[],
): { value: string; label: string }[] {
  const billed = new Set(invoices.map((i) => i.tranche));
  const tranches = delivered
    .filter((n) => !billed.has(n))
    .map((n) => ({ value: String(n), label: `Tranche ${trancheLabel(n)}` }));
  return invoices.length === 0 ? [...tranches, { value: WHOLE, label: 'Whole order' }] : tranches;
}

function InvoiceRows({ invoices }: { invoices: InvoiceView[] }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing="xs" horizontalSpacing={6} fz="sm" aria-label="Invoices of the order">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Tranche</Table.Th>
            <Table.Th>Due date</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoices.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td ff="monospace" style={nowrap}>
                <Anchor component={Link} to={paths.invoice(i.id)}>
                  {i.number}
                </Anchor>
              </Table.Td>
              <Table.Td style={nowrap}>
                {i.tranche === null ? 'Whole order' : trancheLabel(i.tranche)}
              </Table.Td>
              <Table.Td style={nowrap}>{formatDate(i.dueDate)}</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(i.total)}
              </Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(i.balance)}
              </Table.Td>
              <Table.Td style={nowrap}>
                <InvoiceStateBadge invoice={i} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** An order from a quotation: its invoices, and issuing one by hand (issue 44). */
export function OrderInvoices({ orderId }: { orderId: string }) {
  const query = useOrderInvoices(orderId);
  const tranches = useOrderTranches(orderId);
  const issue = useIssueInvoice(orderId);
  const [picked, setPicked] = useState<string>('');
  const [refusal, setRefusal] = useState<unknown>(null);
  const invoices = query.data ?? [];
  const delivered = (tranches.data?.tranches ?? [])
    .filter((t) => t.state === 'Delivered')
    .map((t) => t.number);
  const choices = query.data ? invoiceChoices(invoices, delivered) : [];
  const choice = choices.some((c) => c.value === picked) ? picked : (choices[0]?.value ?? '');
  const send = () => {
    setRefusal(null);
    issue.mutate(choice === WHOLE ? null : Number(choice), { onError: setRefusal });
  };
  return (
    <Card withBorder component="section" aria-labelledby="order-invoices-title">
      <Title order={3} size="h4" mb="sm" id="order-invoices-title">
        Invoices
      </Title>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && invoices.length === 0}
        emptyText="No invoices yet"
        errorText="The invoices could not be loaded."
      />
      <Stack gap="sm">
        {invoices.length > 0 && <InvoiceRows invoices={invoices} />}
        {choices.length > 0 && (
          <Group align="flex-end" gap="xs">
            <NativeSelect
              label="What to invoice"
              data={choices}
              value={choice}
              onChange={(e) => setPicked(e.currentTarget.value)}
              disabled={issue.isPending}
              w={{ base: '100%', xs: 220 }}
            />
            <Button onClick={send} loading={issue.isPending} disabled={issue.isPending}>
              Issue invoice
            </Button>
          </Group>
        )}
        {refusal ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(refusal, BACKOFFICE_MESSAGES.somethingWentWrong)}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}
