import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { formatMoney, priceUnit } from '@spc/shared-contracts';
import { lineTotal, useBasketStore, type BasketLine } from '../stores/basket-store';
import { QuantityStepper } from './quantity-stepper';

function BasketRow({ line, disabled }: { line: BasketLine; disabled?: boolean }) {
  const setQuantity = useBasketStore((s) => s.setQuantity);
  const remove = useBasketStore((s) => s.remove);
  const pricing = priceUnit(line.unit, line.quantity);
  const label = `${line.unit.name} of ${line.productName}`;
  return (
    <Card withBorder padding="sm" aria-label={label}>
      {/* A long name keeps a readable width: the line's total goes under it when space is short. */}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap={4}>
        <div style={{ minWidth: 0, flex: '1 1 9rem' }}>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {line.productName}
          </Text>
          <Text size="sm" c="dimmed">
            {line.unit.name} · {formatMoney(pricing.unitPrice)} each
            {pricing.tier ? ` (from ${pricing.tier.minQuantity})` : ''}
            {pricing.onOffer ? ' (offer)' : ''}
          </Text>
        </div>
        <Text fw={700} data-testid="line-total" style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(lineTotal(line))}
        </Text>
      </Group>
      <Group justify="space-between" align="flex-start" mt="xs" wrap="wrap">
        <QuantityStepper
          unit={line.unit}
          label={label}
          value={line.quantity}
          onChange={(q) => setQuantity(line.key, q)}
          disabled={disabled}
        />
        <Button
          size="md"
          variant="subtle"
          color="red"
          aria-label={`Remove ${label}`}
          onClick={() => remove(line.key)}
          disabled={disabled}
        >
          Remove
        </Button>
      </Group>
    </Card>
  );
}

/** The basket's lines, each with its stepper, price and remove; the total under them. */
export function Basket({ disabled }: { disabled?: boolean }) {
  const lines = useBasketStore((s) => s.lines);
  const total = lines.reduce((sum, l) => sum + lineTotal(l), 0);
  if (!lines.length)
    return (
      <Text c="dimmed" ta="center" py="md">
        The basket is empty: find a product and tap its unit to add it.
      </Text>
    );
  return (
    <Stack gap="sm">
      {lines.map((line) => (
        <BasketRow key={line.key} line={line} disabled={disabled} />
      ))}
      <Group justify="space-between">
        <Text fw={700} fz="xl">
          Total
        </Text>
        <Text fw={800} fz="xl" data-testid="basket-total">
          {formatMoney(total)}
        </Text>
      </Group>
    </Stack>
  );
}
