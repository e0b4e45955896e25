import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Group, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { ORGANISATION_LIMITS, priceListSchema, type PriceList } from '@spc/shared-contracts';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import type { CatalogueProduct } from '../api/organisations';

interface Props {
  initial: PriceList;
  products: CatalogueProduct[];
  pending?: boolean;
  onSubmit: (values: PriceList) => void;
}

const numberOrUndefined = (v: string | number) => (v === '' ? undefined : Number(v));

/** A discount on the shop's prices, and the organisation's own price per product and unit. */
export function PriceListForm({ initial, products, pending, onSubmit }: Props) {
  const form = useForm<PriceList>({
    resolver: zodResolver(priceListSchema),
    mode: 'onChange',
    defaultValues: initial,
  });
  const prices = useFieldArray({ control: form.control, name: 'prices' });
  const rows = useWatch({ control: form.control, name: 'prices' });
  const e = form.formState.errors;
  const productChoices = [
    { value: '', label: 'Pick a product' },
    ...products.map((p) => ({ value: p._id, label: p.name })),
  ];
  const unitsOf = (productId: string) => [
    { value: '', label: 'Pick a unit' },
    ...(products.find((p) => p._id === productId)?.units ?? []).map((u) => ({
      value: u._id,
      label: u.name,
    })),
  ];
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label="Price list">
      <Stack gap="sm">
        <Controller
          control={form.control}
          name="discountPercent"
          render={({ field }) => (
            <NumberInput
              label="Discount on the shop's prices (%)"
              description="Where the list has no price of its own"
              min={0}
              max={100}
              allowDecimal={false}
              value={field.value}
              onChange={(v) => field.onChange(numberOrUndefined(v))}
              error={e.discountPercent?.message}
              disabled={pending}
              w={{ base: '100%', xs: 260 }}
            />
          )}
        />
        {prices.fields.map((row, i) => {
          const productId = rows?.[i]?.productId ?? '';
          const rowError = e.prices?.[i];
          return (
            <Group
              key={row.id}
              align="flex-start"
              gap="xs"
              aria-label={`Price ${i + 1}`}
              role="group"
            >
              <NativeSelect
                aria-label={`Product of price ${i + 1}`}
                data={productChoices}
                {...form.register(`prices.${i}.productId`, {
                  onChange: () => form.setValue(`prices.${i}.unitId`, ''),
                })}
                error={rowError?.productId?.message}
                disabled={pending}
                w={{ base: '100%', sm: 240 }}
              />
              <NativeSelect
                aria-label={`Unit of price ${i + 1}`}
                data={unitsOf(productId)}
                {...form.register(`prices.${i}.unitId`)}
                error={rowError?.unitId?.message}
                disabled={pending || !productId}
                w={{ base: '100%', sm: 180 }}
              />
              <Controller
                control={form.control}
                name={`prices.${i}.price`}
                render={({ field }) => (
                  <NumberInput
                    aria-label={`Price ${i + 1} (KES)`}
                    placeholder="KES"
                    min={0}
                    max={ORGANISATION_LIMITS.priceMax}
                    allowDecimal={false}
                    thousandSeparator=","
                    value={field.value}
                    onChange={(v) => field.onChange(numberOrUndefined(v))}
                    error={rowError?.price?.message ?? rowError?.message}
                    disabled={pending}
                    w={{ base: 'calc(100% - 44px)', sm: 140 }}
                  />
                )}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={`Remove price ${i + 1}`}
                onClick={() => prices.remove(i)}
                disabled={pending}
              >
                ×
              </ActionIcon>
            </Group>
          );
        })}
        {prices.fields.length === 0 && (
          <Text size="sm" c="dimmed">
            No prices of its own: the shop&apos;s prices less the discount.
          </Text>
        )}
        <Group justify="space-between">
          <Button
            variant="default"
            onClick={() =>
              prices.append({ productId: '', unitId: '', price: undefined as unknown as number })
            }
            disabled={pending || prices.fields.length >= ORGANISATION_LIMITS.priceListEntries}
          >
            Add a price
          </Button>
          <Button type="submit" loading={pending}>
            Save price list
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
