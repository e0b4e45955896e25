import { ActionIcon, Group, NumberInput, Stack, Text } from '@mantine/core';
import { unitQuantityProblem, type SaleUnit } from '@spc/shared-contracts';

type Rule = Pick<SaleUnit, 'minQuantity' | 'step'>;

/** "From 10, in steps of 10" / "1 or more": a unit's quantity rule in a clerk's words. */
export function unitRuleText(unit: Rule): string {
  if (unit.step === 1) return `${unit.minQuantity} or more`;
  return `From ${unit.minQuantity}, in steps of ${unit.step}`;
}

/** The next quantity the unit sells by above `quantity` (its minimum when under it). */
export function nextQuantity(unit: Rule, quantity: number): number {
  if (quantity < unit.minQuantity) return unit.minQuantity;
  return unit.minQuantity + (Math.floor((quantity - unit.minQuantity) / unit.step) + 1) * unit.step;
}

/** The quantity the unit sells by below `quantity`, or null at its minimum. */
export function previousQuantity(unit: Rule, quantity: number): number | null {
  if (quantity <= unit.minQuantity) return null;
  return unit.minQuantity + (Math.ceil((quantity - unit.minQuantity) / unit.step) - 1) * unit.step;
}

/**
 * A quantity of one unit with large − and + buttons that move by the unit's step and never go
 * under its minimum; a typed quantity off the step is shown with the API's words.
 */
export function QuantityStepper({
  unit,
  label,
  value,
  onChange,
  disabled,
}: {
  unit: SaleUnit;
  /** What the buttons and the field are named by (the product and unit). */
  label: string;
  value: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
}) {
  const problem = unitQuantityProblem(unit, value);
  const down = previousQuantity(unit, value);
  return (
    <Stack gap={4}>
      <Group gap={6} wrap="nowrap">
        <ActionIcon
          size={44}
          variant="default"
          aria-label={`Fewer ${label}`}
          disabled={disabled || down === null}
          onClick={() => down !== null && onChange(down)}
        >
          <Text fz="xl" fw={700}>
            −
          </Text>
        </ActionIcon>
        <NumberInput
          aria-label={`Quantity of ${label}`}
          size="lg"
          w={68}
          min={0}
          allowDecimal={false}
          allowNegative={false}
          hideControls
          value={value}
          onChange={(v) => onChange(typeof v === 'number' ? v : 0)}
          error={!!problem}
          disabled={disabled}
        />
        <ActionIcon
          size={44}
          variant="default"
          aria-label={`More ${label}`}
          disabled={disabled}
          onClick={() => onChange(nextQuantity(unit, value))}
        >
          <Text fz="xl" fw={700}>
            +
          </Text>
        </ActionIcon>
      </Group>
      <Text size="sm" c={problem ? 'red' : 'dimmed'} role={problem ? 'alert' : undefined}>
        {problem ?? unitRuleText(unit)}
      </Text>
    </Stack>
  );
}
