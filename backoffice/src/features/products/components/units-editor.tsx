import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  DEFAULT_UNIT_NAME,
  SALE_UNIT_LIMITS,
  saleUnitsSchema,
  TAX_TYPES,
  taxTypeText,
} from '@spc/shared-contracts';
import type { Product } from '../api/get-products';
import type { ProductTax } from '../api/get-product-tax';

type Num = number | '';

export interface TierDraft {
  minQuantity: Num;
  price: Num;
}

/** A unit as the form edits it: numbers may be empty while typed. */
export interface UnitDraft {
  _id?: string;
  name: string;
  seedlings: Num;
  price: Num;
  offerPrice: Num;
  sku: string;
  minQuantity: Num;
  step: Num;
  tiers: TierDraft[];
  /** The unit's own tax type; empty: its product's. */
  taxType: string;
}

const emptyUnit = (): UnitDraft => ({
  name: '',
  seedlings: '',
  price: '',
  offerPrice: '',
  sku: '',
  minQuantity: 1,
  step: 1,
  tiers: [],
  taxType: '',
});

/**
 * The product's units as drafts (a new product: its single seedling alone), each with its own tax
 * type from the product's tax (staff read it apart from the product).
 */
export function draftsOf(product?: Product | null, tax?: ProductTax): UnitDraft[] {
  const units = product?.units ?? [];
  const ownTax = new Map<string, string>(tax?.units.map((u) => [u._id, u.taxType ?? ''] as const));
  if (!units.length) return [{ ...emptyUnit(), name: DEFAULT_UNIT_NAME, seedlings: 1 }];
  return units.map((u) => ({
    _id: u._id,
    name: u.name,
    seedlings: u.seedlings,
    price: u.price,
    offerPrice: u.offerPrice || '',
    sku: u.sku,
    minQuantity: u.minQuantity,
    step: u.step,
    tiers: u.tiers.map((t) => ({ minQuantity: t.minQuantity, price: t.price })),
    taxType: ownTax.get(u._id) ?? '',
  }));
}

const numberOrAbsent = (n: Num) => (n === '' ? undefined : n);

/** What the API is sent (`units`, JSON): the default unit's price is the form's price. */
export function unitsPayload(drafts: UnitDraft[]) {
  return drafts.map((u, i) => ({
    ...(u._id ? { _id: u._id } : {}),
    name: u.name,
    seedlings: numberOrAbsent(u.seedlings),
    ...(i === 0
      ? {}
      : { price: numberOrAbsent(u.price), offerPrice: numberOrAbsent(u.offerPrice) }),
    sku: u.sku,
    minQuantity: numberOrAbsent(u.minQuantity),
    step: numberOrAbsent(u.step),
    tiers: u.tiers.map((t) => ({
      minQuantity: numberOrAbsent(t.minQuantity),
      price: numberOrAbsent(t.price),
    })),
    // Left out: the unit is taxed at its product's type.
    ...(u.taxType ? { taxType: u.taxType } : {}),
  }));
}

/**
 * The API's rules (the shared schema) on the drafts, by path ("1.tiers.0.price"): shown as the
 * clerk types. `price`/`offer`: the form's, the default unit's prices (unknown yet: no tier check).
 */
export function unitProblems(
  drafts: UnitDraft[],
  price: number | undefined,
  offer: number,
): Map<string, string> {
  const parsed = saleUnitsSchema(price ?? Number.POSITIVE_INFINITY, offer).safeParse(
    unitsPayload(drafts),
  );
  const problems = new Map<string, string>();
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      if (!problems.has(key)) problems.set(key, issue.message);
    }
  return problems;
}

const toNum = (v: string | number): Num => (typeof v === 'number' ? v : '');

/**
 * Sale units of a product: each unit's name, seedlings, price, offer, SKU, minimum, step, tiers and
 * its own tax type (`productTax` names what the product's is, for the unit that has none).
 */
export function UnitsEditor({
  drafts,
  onChange,
  problems,
  productTax,
}: {
  drafts: UnitDraft[];
  onChange: (drafts: UnitDraft[]) => void;
  problems: Map<string, string>;
  productTax: string;
}) {
  const set = (i: number, change: Partial<UnitDraft>) =>
    onChange(drafts.map((u, j) => (j === i ? { ...u, ...change } : u)));
  const setTier = (i: number, k: number, change: Partial<TierDraft>) =>
    set(i, { tiers: drafts[i]!.tiers.map((t, l) => (l === k ? { ...t, ...change } : t)) });
  const err = (path: string) => problems.get(path);

  return (
    <Stack gap="sm">
      <Text fw={600} size="sm">
        Sale units
      </Text>
      {problems.get('') && (
        <Text c="red" size="sm" role="alert">
          {problems.get('')}
        </Text>
      )}
      {drafts.map((unit, i) => {
        const number = (
          label: string,
          key: 'seedlings' | 'price' | 'offerPrice' | 'minQuantity' | 'step',
          disabled = false,
        ) => (
          <NumberInput
            label={label}
            allowDecimal={false}
            min={0}
            disabled={disabled}
            value={unit[key]}
            onChange={(v) => set(i, { [key]: toNum(v) })}
            error={err(`${i}.${key}`)}
          />
        );
        return (
          <Fieldset
            key={unit._id ?? `new-${i}`}
            legend={i === 0 ? `Unit 1 (default): ${unit.name}` : `Unit ${i + 1}: ${unit.name}`}
            aria-label={`Unit ${i + 1}`}
          >
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput
                  label="Unit name"
                  value={unit.name}
                  onChange={(ev) => set(i, { name: ev.currentTarget.value })}
                  error={err(`${i}.name`)}
                />
                {number('Seedlings per unit', 'seedlings', i === 0)}
                {i > 0 && number('Unit price (KSH)', 'price')}
                {i > 0 && number('Unit offer price (KSH, optional)', 'offerPrice')}
                {number('Minimum (units)', 'minQuantity')}
                {number('Step', 'step')}
                <TextInput
                  label="SKU (optional)"
                  value={unit.sku}
                  onChange={(ev) => set(i, { sku: ev.currentTarget.value })}
                  error={err(`${i}.sku`)}
                />
                <NativeSelect
                  label="Unit tax type"
                  data={[
                    { value: '', label: `Product's (${productTax})` },
                    ...TAX_TYPES.map((t) => ({ value: t, label: taxTypeText(t) })),
                  ]}
                  value={unit.taxType}
                  onChange={(ev) => set(i, { taxType: ev.currentTarget.value })}
                  error={err(`${i}.taxType`)}
                />
              </SimpleGrid>
              {i === 0 && (
                <Text size="xs" c="dimmed">
                  The single seedling is priced by the price and offer above.
                </Text>
              )}
              {unit.tiers.map((tier, k) => (
                <Group key={k} align="flex-start" gap="xs" wrap="nowrap">
                  <NumberInput
                    label={`Tier ${k + 1}: from (units)`}
                    allowDecimal={false}
                    min={0}
                    value={tier.minQuantity}
                    onChange={(v) => setTier(i, k, { minQuantity: toNum(v) })}
                    error={err(`${i}.tiers.${k}.minQuantity`)}
                  />
                  <NumberInput
                    label={`Tier ${k + 1}: price each (KSH)`}
                    allowDecimal={false}
                    min={0}
                    value={tier.price}
                    onChange={(v) => setTier(i, k, { price: toNum(v) })}
                    error={err(`${i}.tiers.${k}.price`)}
                  />
                  <ActionIcon
                    mt={28}
                    variant="subtle"
                    color="red"
                    aria-label={`Remove tier ${k + 1} of unit ${i + 1}`}
                    onClick={() => set(i, { tiers: unit.tiers.filter((_, l) => l !== k) })}
                  >
                    ×
                  </ActionIcon>
                </Group>
              ))}
              <Group gap="xs">
                {unit.tiers.length < SALE_UNIT_LIMITS.tiersPerUnit && (
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() =>
                      set(i, { tiers: [...unit.tiers, { minQuantity: '', price: '' }] })
                    }
                  >
                    Add tier to unit {i + 1}
                  </Button>
                )}
                {i > 0 && (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => onChange(drafts.filter((_, j) => j !== i))}
                  >
                    Remove unit {i + 1}
                  </Button>
                )}
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      {drafts.length < SALE_UNIT_LIMITS.unitsPerProduct && (
        <Button variant="light" onClick={() => onChange([...drafts, emptyUnit()])}>
          Add unit
        </Button>
      )}
    </Stack>
  );
}
