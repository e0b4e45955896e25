import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { formatMoney, tierLabel, type SaleUnit } from '@spc/shared-contracts';
import { useState } from 'react';
import { useTillProducts, type TillProduct } from '../api/till-products';
import { queuedSeedlings, useOfflineQueue } from '../offline/offline-queue';
import { useOnline } from '../offline/offline-sync';
import { TillQueryState } from './till-query-state';
import { unitRuleText } from './quantity-stepper';

/** One unit of a product as a large button: "Tray of 50 · KES 1,500", its rule and its tiers. */
function UnitButton({
  product,
  unit,
  onPick,
  disabled,
}: {
  product: TillProduct;
  unit: SaleUnit;
  onPick: (product: TillProduct, unit: SaleUnit) => void;
  disabled?: boolean;
}) {
  const price = unit.offerPrice > 0 && unit.offerPrice < unit.price ? unit.offerPrice : unit.price;
  return (
    <Stack gap={2}>
      <Button
        size="lg"
        h="auto"
        py="xs"
        variant="light"
        fullWidth
        aria-label={`Add ${unit.name} of ${product.productName}`}
        onClick={() => onPick(product, unit)}
        disabled={disabled}
        styles={{ label: { whiteSpace: 'normal', width: '100%' } }}
      >
        <Group justify="space-between" gap={4} w="100%" wrap="wrap">
          <span>{unit.name}</span>
          <span>{formatMoney(price)}</span>
        </Group>
      </Button>
      <Text size="xs" c="dimmed">
        {unitRuleText(unit)}
        {unit.tiers.map((t) => ` · ${tierLabel(unit, t)}`).join('')}
      </Text>
    </Stack>
  );
}

/** The catalogue searched by name, each product with its units to add to the basket. */
export function ProductPicker({
  onPick,
  disabled,
}: {
  onPick: (product: TillProduct, unit: SaleUnit) => void;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const online = useOnline();
  const query = useTillProducts(debounced, online);
  const products = query.data ?? [];
  // Stock less what the sales waiting on this device took (the API has not counted them yet).
  const queue = useOfflineQueue((s) => s.queue);
  const taken = queuedSeedlings(queue);
  return (
    <Stack>
      <TextInput
        size="lg"
        label="Find a product"
        placeholder="Type a name, e.g. kale"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      <TillQueryState
        query={query}
        isEmpty={products.length === 0}
        emptyText={debounced ? `No products found for “${debounced}”.` : 'No products found.'}
        errorTitle="The products could not be loaded"
      />
      {products.map((product) => {
        const stock = product.productQuantity - (taken.get(product._id) ?? 0);
        return (
          <Card key={product._id} withBorder padding="sm" aria-label={product.productName}>
            <Group justify="space-between" mb="xs" gap={4}>
              <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                {product.productName}
              </Text>
              <Text size="sm" c={stock > 0 ? 'dimmed' : 'red'} data-testid="product-stock">
                {stock > 0 ? `${stock.toLocaleString('en-US')} seedlings in stock` : 'Out of stock'}
              </Text>
            </Group>
            <Stack gap="xs">
              {product.units.map((unit) => (
                <UnitButton
                  key={unit._id}
                  product={product}
                  unit={unit}
                  onPick={onPick}
                  disabled={disabled}
                />
              ))}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
