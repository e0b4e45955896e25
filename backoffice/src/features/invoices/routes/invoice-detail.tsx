import {
  Anchor,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  type TableProps,
} from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  CREDIT_NOTE_REASON_LABELS,
  formatDate,
  formatDateTime,
  formatMoney,
  INVOICE_MESSAGES,
  INVOICE_PAYMENT_KIND_LABELS,
  trancheLabel,
  type InvoiceView,
} from '@spc/shared-contracts';
import { errorCode } from '@spc/shared-contracts/web-client';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { DownloadButton } from '../../../components/download-button';
import { EtimsDocuments } from '../../../components/etims-documents';
import { InvoiceStateBadge } from '../../../components/invoice-state-badge';
import { ListState } from '../../../components/list-state';
import { paths } from '../../../config/paths';
import { downloadInvoicePdf } from '../../../lib/invoices';
import { useSessionRole } from '../../../lib/session-store';
import { useInvoice, useInvoiceEtims } from '../api/get-invoice';
import {
  BankPaymentForm,
  CreditNoteForm,
  leftToCredit,
  WithholdingForm,
} from '../components/invoice-forms';

const money = (n: number) => formatMoney(n, 'KES');
const nowrap = { whiteSpace: 'nowrap' } as const;

/** A label and its value, one row of a card. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" align="flex-start">
      <Text size="sm" c="dimmed" style={nowrap}>
        {label}
      </Text>
      <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Group>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** A small table that scrolls sideways in its card on a phone, never the page. */
function Scroll({ minWidth, ...props }: TableProps & { minWidth: number }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table verticalSpacing="xs" horizontalSpacing={6} fz="sm" {...props} />
    </Table.ScrollContainer>
  );
}

function Lines({ invoice }: { invoice: InvoiceView }) {
  return (
    <Section title="Lines">
      <Scroll minWidth={480} aria-label="Lines billed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th ta="right">Delivered</Table.Th>
            <Table.Th ta="right">Unit price</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.lines.map((l) => (
            <Table.Tr key={l.line}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {l.productName} · {l.unitName}
              </Table.Td>
              <Table.Td ta="right">{l.quantity.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(l.unitPrice)}
              </Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {money(l.amount)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Scroll>
      <Stack gap={6} mt="sm" maw={360} ml="auto" aria-label="Totals">
        <Fact label="Delivery fee">{money(invoice.fee)}</Fact>
        <Fact label="Total">
          <strong>{money(invoice.total)}</strong>
        </Fact>
        <Fact label="Paid">{money(invoice.paid)}</Fact>
        <Fact label="Tax withheld">{money(invoice.withheld)}</Fact>
        <Fact label="Credited">{money(invoice.credited)}</Fact>
        {invoice.excess > 0 && <Fact label="Excess paid">{money(invoice.excess)}</Fact>}
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>Balance</Text>
          <Text fw={700} data-testid="invoice-balance" style={nowrap}>
            {money(invoice.balance)}
          </Text>
        </Group>
      </Stack>
    </Section>
  );
}

function Payments({ invoice }: { invoice: InvoiceView }) {
  return (
    <Section title="Payments">
      {invoice.payments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No payments yet.
        </Text>
      ) : (
        <Scroll minWidth={560} aria-label="Payments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>How</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Recorded by</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.payments.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td style={nowrap}>{formatDateTime(p.at)}</Table.Td>
                <Table.Td>{INVOICE_PAYMENT_KIND_LABELS[p.kind]}</Table.Td>
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {p.reference}
                </Table.Td>
                <Table.Td ta="right" style={nowrap}>
                  {money(p.amount)}
                  {p.excess > 0 && (
                    <Text size="xs" c="dimmed">
                      of which {money(p.excess)} excess
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{p.by?.fullName ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Scroll>
      )}
    </Section>
  );
}

function CreditNotes({ invoice }: { invoice: InvoiceView }) {
  return (
    <Section title="Credit notes">
      {invoice.creditNotes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No credit notes.
        </Text>
      ) : (
        <Scroll minWidth={560} aria-label="Credit notes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.creditNotes.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td ff="monospace" style={nowrap}>
                  {c.number}
                </Table.Td>
                <Table.Td style={nowrap}>{formatDateTime(c.at)}</Table.Td>
                <Table.Td>{CREDIT_NOTE_REASON_LABELS[c.reason]}</Table.Td>
                <Table.Td ta="right" style={nowrap}>
                  {money(c.amount)}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {c.note}
                  {c.by ? ` (${c.by.fullName})` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Scroll>
      )}
    </Section>
  );
}

const REMINDER_WORDS = { due: 'On the due date', week: 'A week after the due date' } as const;

function Reminders({ invoice }: { invoice: InvoiceView }) {
  return (
    <Section title="Reminders sent">
      {invoice.reminders.length === 0 ? (
        <Text size="sm" c="dimmed">
          No reminders sent.
        </Text>
      ) : (
        <Stack gap={4}>
          {invoice.reminders.map((r) => (
            <Text size="sm" key={r.kind}>
              {REMINDER_WORDS[r.kind]}: e-mail and SMS to the billing contact,{' '}
              {formatDateTime(r.at)}
            </Text>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** The invoice's head: both parties with their KRA PINs, the order and the tranche, the dates. */
function Parties({ invoice, orderLink }: { invoice: InvoiceView; orderLink: string }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder>
        <Stack gap={6}>
          <Fact label="Billed to">
            <Anchor component={Link} to={paths.organisation(invoice.organisation.id)} size="sm">
              {invoice.organisation.name}
            </Anchor>
          </Fact>
          <Fact label="Their KRA PIN">{invoice.organisation.kraPin}</Fact>
          <Fact label="From">{invoice.shop.name}</Fact>
          <Fact label="Our KRA PIN">{invoice.shop.kraPin}</Fact>
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap={6}>
          <Fact label="Order">
            <Anchor component={Link} to={orderLink} size="sm">
              {invoice.purchaseNumber}
            </Anchor>
          </Fact>
          <Fact label="LPO number">{invoice.lpoNumber}</Fact>
          <Fact label="Tranche">
            {invoice.tranche === null ? 'Whole order' : trancheLabel(invoice.tranche)}
          </Fact>
          <Fact label="Issued">{formatDate(invoice.issuedAt)}</Fact>
          <Fact label="Due date">{formatDate(invoice.dueDate)}</Fact>
        </Stack>
      </Card>
    </SimpleGrid>
  );
}

/**
 * /invoices/:id: an invoice on account (issue 44), its PDF, what settled it, and the clerk's three
 * forms: a bank payment and tax withheld while it is open, a credit note while some is creditable.
 */
export function InvoiceDetailRoute() {
  const { id = '' } = useParams();
  const role = useSessionRole() ?? 'staff';
  const query = useInvoice(id);
  const etims = useInvoiceEtims(id);
  const back = (
    <Anchor component={Link} to={paths.invoices} size="sm">
      ← Invoices
    </Anchor>
  );
  if (!query.data) {
    const code = errorCode(query.error);
    return (
      <Stack>
        {back}
        <ListState
          isLoading={query.isPending}
          isError={query.isError}
          isEmpty={false}
          emptyText=""
          errorText={
            code === 'NOT_FOUND' || code === 'VALIDATION_FAILED'
              ? INVOICE_MESSAGES.notFound
              : BACKOFFICE_MESSAGES.listError
          }
        />
      </Stack>
    );
  }
  const invoice = query.data;
  const open = invoice.state === 'Open';
  return (
    <Stack>
      {back}
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Group gap="xs">
            <Title order={2} ff="monospace">
              {invoice.number}
            </Title>
            <InvoiceStateBadge invoice={invoice} />
          </Group>
          <Text size="sm" c="dimmed">
            {money(invoice.total)} · balance {money(invoice.balance)} · due{' '}
            {formatDate(invoice.dueDate)}
          </Text>
        </div>
        <DownloadButton download={() => downloadInvoicePdf(invoice.id, invoice.number)}>
          Download PDF
        </DownloadButton>
      </Group>
      <Parties invoice={invoice} orderLink={paths.orderDetail(role, invoice.orderId)} />
      <Lines invoice={invoice} />
      <EtimsDocuments documents={etims.data ?? []} />
      {open && (
        <Section title="Record a bank payment">
          <BankPaymentForm invoice={invoice} />
        </Section>
      )}
      {open && (
        <Section title="Record tax withheld">
          <WithholdingForm invoice={invoice} />
        </Section>
      )}
      {leftToCredit(invoice) > 0 && (
        <Section title="Issue a credit note">
          <CreditNoteForm invoice={invoice} />
        </Section>
      )}
      {!open && (
        <Text size="sm" c="dimmed">
          {INVOICE_MESSAGES.settled}.
        </Text>
      )}
      <Payments invoice={invoice} />
      <CreditNotes invoice={invoice} />
      <Reminders invoice={invoice} />
    </Stack>
  );
}
