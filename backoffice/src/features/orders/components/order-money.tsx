import {
  Badge,
  Box,
  Card,
  Flex,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  formatDateTime,
  formatMoney,
  MONEY_TEXTS,
  moneyCodeText,
  staffMoneyHowText,
  moneyNotes,
  type MoneyEntry,
  type OrderMoney,
} from '@spc/shared-contracts';

const ksh = (n: number) => formatMoney(n, 'KSH');

/** A total: label and amount on one line on a phone, the amount under its label from 576 px. */
function Total({ label, amount }: { label: string; amount: number }) {
  return (
    <Paper withBorder p="xs" radius="sm">
      <Flex
        direction={{ base: 'row', xs: 'column' }}
        justify={{ base: 'space-between', xs: 'flex-start' }}
        align={{ base: 'baseline', xs: 'flex-start' }}
        gap={4}
      >
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text fw={700} size="lg" style={{ whiteSpace: 'nowrap' }}>
          {ksh(amount)}
        </Text>
      </Flex>
    </Paper>
  );
}

function Entry({ entry }: { entry: MoneyEntry }) {
  const incoming = entry.direction === 'in';
  const code = moneyCodeText(entry);
  const notes = moneyNotes(entry, 'KSH');
  return (
    <Box
      component="li"
      py="xs"
      data-testid="money-entry"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      {/* Received or refunded and the amount on top; the words below take the card's whole width. */}
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Badge variant="light" color={incoming ? 'green' : 'orange'}>
          {incoming ? 'Received' : 'Refunded'}
        </Badge>
        <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
          {incoming ? ksh(entry.amount) : `− ${ksh(entry.amount)}`}
        </Text>
      </Group>
      <Text size="sm" fw={500} mt={4} style={{ overflowWrap: 'anywhere' }}>
        {code ? `${staffMoneyHowText(entry)} · ${code}` : staffMoneyHowText(entry)}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {formatDateTime(entry.at)}
        {entry.by ? ` · by ${entry.by.fullName} (${entry.by.role})` : ''}
        {incoming && entry.payer ? ` · from ${entry.payer}` : ''}
      </Text>
      {notes.length > 0 && (
        <Text size="xs" c="dimmed">
          {notes.map((n, i) => (
            <span key={n} style={{ whiteSpace: 'nowrap' }}>
              {i > 0 && ' · '}
              {n}
            </span>
          ))}
        </Text>
      )}
    </Box>
  );
}

/**
 * The order's money as its ledger says: what was received and given back in total, then each
 * entry (how, its code or reference, when, and who recorded it).
 */
export function OrderMoneyCard({ money }: { money: OrderMoney }) {
  return (
    <Card withBorder component="section" aria-labelledby="order-money-title">
      <Title order={3} size="h4" mb="sm" id="order-money-title">
        Money
      </Title>
      {money.entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {MONEY_TEXTS.none}
        </Text>
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
            <Total label="Received" amount={money.received} />
            <Total label="Refunded" amount={money.refunded} />
            <Total label="Refundable" amount={money.refundable} />
          </SimpleGrid>
          <Box
            component="ul"
            aria-label="Money received and refunded"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            {money.entries.map((e) => (
              <Entry key={e.id} entry={e} />
            ))}
          </Box>
        </Stack>
      )}
    </Card>
  );
}
