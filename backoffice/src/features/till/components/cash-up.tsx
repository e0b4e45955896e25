import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  closeTillSchema,
  formatDateTime,
  formatMoney,
  STOCK_SHORT_LABEL,
  TILL_ATTENTION_LABELS,
  type CloseTillForm,
  type TillCashUpView,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useCloseSession } from '../api/sessions';

const METHOD_NAMES = { cash: 'Cash', mpesa: 'M-Pesa' } as const;

/** "+ KES 50" over, "− KES 50" short, "KES 0" even. */
export function differenceText(difference: number): string {
  if (difference > 0) return `+ ${formatMoney(difference)} over`;
  if (difference < 0) return `− ${formatMoney(-difference)} short`;
  return `${formatMoney(0)} (even)`;
}

/** Expected against counted per payment method. */
export function MethodsTable({ cashUp }: { cashUp: TillCashUpView }) {
  return (
    // On a phone the four columns scroll sideways rather than cut the difference off.
    <Table.ScrollContainer minWidth={340}>
      <Table aria-label="Expected and counted" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Method</Table.Th>
            <Table.Th ta="right">Expected</Table.Th>
            <Table.Th ta="right">Counted</Table.Th>
            <Table.Th ta="right">Difference</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {cashUp.methods.map((m) => (
            <Table.Tr key={m.method}>
              <Table.Td>{METHOD_NAMES[m.method]}</Table.Td>
              <Table.Td ta="right">{formatMoney(m.expected)}</Table.Td>
              <Table.Td ta="right">{m.counted === null ? '—' : formatMoney(m.counted)}</Table.Td>
              <Table.Td ta="right">
                {m.difference === null ? '—' : differenceText(m.difference)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Who sold what in the session. */
export function SellersTable({ cashUp }: { cashUp: TillCashUpView }) {
  if (!cashUp.sellers.length) return <Text c="dimmed">No sales yet in this session.</Text>;
  return (
    <Table aria-label="Who sold what">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Seller</Table.Th>
          <Table.Th ta="right">Sales</Table.Th>
          <Table.Th ta="right">Total</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {cashUp.sellers.map((s) => (
          <Table.Tr key={s.staffId}>
            <Table.Td>{s.staffName}</Table.Td>
            <Table.Td ta="right">{s.sales}</Table.Td>
            <Table.Td ta="right">{formatMoney(s.total)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The session's voids or refunds, each with who did it, who approved it and why. */
export function ApprovedTable({ title, rows }: { title: string; rows: TillCashUpView['voids'] }) {
  return (
    <Stack gap={4}>
      <Title order={4}>{title}</Title>
      {rows.length === 0 ? (
        <Text c="dimmed">None.</Text>
      ) : (
        <Table aria-label={title}>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={`${r.purchaseNumber}-${r.at}`}>
                <Table.Td>
                  {r.purchaseNumber}
                  <Text size="xs" c="dimmed">
                    {formatDateTime(r.at)} · {r.byName}, approved by {r.approvedByName}
                  </Text>
                  <Text size="xs">{r.reason}</Text>
                </Table.Td>
                <Table.Td ta="right">{formatMoney(r.amount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/**
 * The session's sales for the clerk (issue 47): an M-Pesa code not counted (its reasons and what is
 * unpaid), or stock taken below zero (short), each marked when it was sold offline.
 */
export function AttentionTable({ rows }: { rows: TillCashUpView['attention'] }) {
  return (
    <Stack gap={4}>
      <Title order={4}>Needs attention</Title>
      {rows.length === 0 ? (
        <Text c="dimmed">None.</Text>
      ) : (
        <Table aria-label="Needs attention">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Sale</Table.Th>
              <Table.Th ta="right">Unpaid</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.orderId}>
                <Table.Td>
                  {r.purchaseNumber} · {formatMoney(r.total)}
                  {r.offline ? ' · sold offline' : ''}
                  {r.reasons.map((reason) => (
                    <Text key={reason} size="xs" c="red">
                      {TILL_ATTENTION_LABELS[reason]}
                    </Text>
                  ))}
                  {r.short && (
                    <Text size="xs" c="orange.8">
                      {STOCK_SHORT_LABEL}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(r.unpaid)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

const closeTill = closeTillSchema();

/**
 * Closing the day: the cash counted in the drawer, the difference against what is expected shown
 * as it is typed. A session is closed once; the API refuses a second close.
 */
export function CloseDayForm({ cashUp }: { cashUp: TillCashUpView }) {
  const mutation = useCloseSession(cashUp.session._id);
  const form = useForm<CloseTillForm>({ resolver: zodResolver(closeTill) });
  const counted = useWatch({ control: form.control, name: 'countedCash' });
  const expected = cashUp.methods.find((m) => m.method === 'cash')?.expected ?? 0;
  const submit = form.handleSubmit((values) => mutation.mutate(values));
  const e = form.formState.errors;
  return (
    <Card withBorder padding="md">
      <form onSubmit={submit} noValidate aria-label="Close the day">
        <Stack>
          <Title order={3}>Close the day</Title>
          <Text>
            Count the cash in the drawer. Expected: <strong>{formatMoney(expected)}</strong> (the
            float, the cash taken, less change and cash refunds).
          </Text>
          <Controller
            control={form.control}
            name="countedCash"
            render={({ field }) => (
              <NumberInput
                size="lg"
                label="Cash counted"
                prefix="KES "
                thousandSeparator=","
                allowDecimal={false}
                allowNegative={false}
                hideControls
                inputMode="numeric"
                value={field.value ?? ''}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                error={e.countedCash?.message}
                disabled={mutation.isPending}
              />
            )}
          />
          {typeof counted === 'number' && (
            <Text fz="lg" fw={700} data-testid="close-difference">
              Difference: {differenceText(counted - expected)}
            </Text>
          )}
          {mutation.isError && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
            </Alert>
          )}
          <Group>
            <Button size="lg" type="submit" color="red" loading={mutation.isPending}>
              Close the till
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
