import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  formatDate,
  formatMoney,
  KENYA_COUNTY_NAMES,
  QUOTATION_LIMITS,
  quotationDraftSchema,
  type QuotationDraftForm,
  type QuotationLineView,
} from '@spc/shared-contracts';
import { Controller, useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { useGrowingBatches, type ProductUnits } from '../api/get-draft-choices';

type Line = QuotationDraftForm['lines'][number];

/** Where a line's seedlings come from: ready stock, or a growing batch of its product. */
function SourceSelect({
  control,
  index,
  disabled,
}: {
  control: Control<QuotationDraftForm>;
  index: number;
  disabled?: boolean;
}) {
  const productId = useWatch({ control, name: `lines.${index}.productId` });
  const batches = useGrowingBatches(productId);
  return (
    <Controller
      control={control}
      name={`lines.${index}.batchId`}
      render={({ field }) => {
        const known = batches.data ?? [];
        // A batch the draft names stays choosable while the list loads (or once it is sold out).
        const kept =
          field.value && !known.some((b) => b._id === field.value)
            ? [{ value: field.value, label: 'The batch of this line' }]
            : [];
        return (
          <NativeSelect
            label="Source"
            data={[
              { value: '', label: 'Ready stock' },
              ...known.map((b) => ({
                value: b._id,
                label: `Batch ready ${formatDate(b.readyOn)} (${b.available.toLocaleString('en-US')} left)`,
              })),
              ...kept,
            ]}
            value={field.value}
            onChange={(e) => field.onChange(e.currentTarget.value)}
            disabled={disabled}
          />
        );
      }}
    />
  );
}

function LineFields({
  control,
  index,
  products,
  priced,
  disabled,
  onRemove,
}: {
  control: Control<QuotationDraftForm>;
  index: number;
  products: ProductUnits[];
  priced?: QuotationLineView;
  disabled?: boolean;
  onRemove?: () => void;
}) {
  const productId = useWatch({ control, name: `lines.${index}.productId` });
  const units = products.find((p) => p._id === productId)?.units ?? [];
  return (
    <Card withBorder padding="sm" component="fieldset" aria-label={`Line ${index + 1}`}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <Controller
          control={control}
          name={`lines.${index}.productId`}
          render={({ field, fieldState }) => (
            <NativeSelect
              label="Product"
              data={[
                { value: '', label: 'Choose a product' },
                ...products.map((p) => ({ value: p._id, label: p.name })),
              ]}
              value={field.value}
              onChange={(e) => field.onChange(e.currentTarget.value)}
              error={fieldState.error?.message}
              disabled={disabled}
            />
          )}
        />
        <Controller
          control={control}
          name={`lines.${index}.unitId`}
          render={({ field, fieldState }) => (
            <NativeSelect
              label="Unit"
              data={[
                { value: '', label: 'Choose a unit' },
                ...units.map((u) => ({ value: u._id, label: `${u.name} (${u.seedlings})` })),
              ]}
              value={field.value}
              onChange={(e) => field.onChange(e.currentTarget.value)}
              error={fieldState.error?.message}
              disabled={disabled}
            />
          )}
        />
        <Controller
          control={control}
          name={`lines.${index}.quantity`}
          render={({ field, fieldState }) => (
            <NumberInput
              label="Quantity (units)"
              min={1}
              allowDecimal={false}
              thousandSeparator=","
              value={field.value}
              onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
              error={fieldState.error?.message}
              disabled={disabled}
            />
          )}
        />
        <SourceSelect control={control} index={index} disabled={disabled} />
        <Controller
          control={control}
          name={`lines.${index}.unitPrice`}
          render={({ field, fieldState }) => (
            <NumberInput
              label="Unit price (KES)"
              description={
                priced
                  ? `Shop price ${formatMoney(priced.shopUnitPrice)}`
                  : "Empty: the price list's, on the shop's price"
              }
              min={0}
              allowDecimal={false}
              thousandSeparator=","
              value={field.value ?? ''}
              onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
              error={fieldState.error?.message}
              disabled={disabled}
            />
          )}
        />
        <Group align="flex-end" justify="space-between" wrap="nowrap">
          {priced && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Line total <b>{formatMoney(priced.lineTotal)}</b>
            </Text>
          )}
          {onRemove && (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove line ${index + 1}`}
              onClick={onRemove}
              disabled={disabled}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      </SimpleGrid>
    </Card>
  );
}

const EMPTY_LINE: Line = { productId: '', unitId: '', quantity: 1, batchId: '' };

/**
 * The staff's draft: lines (product, unit, quantity, source, price), delivery, fee, validity and
 * note. `priced` are the lines as the API last priced them (the draft's), shown beside each line.
 */
export function DraftEditor({
  initial,
  priced,
  products,
  pending,
  disabled,
  onSubmit,
}: {
  initial: QuotationDraftForm;
  priced: QuotationLineView[];
  products: ProductUnits[];
  pending?: boolean;
  disabled?: boolean;
  onSubmit: (values: QuotationDraftForm) => void;
}) {
  const form = useForm<QuotationDraftForm>({
    resolver: zodResolver(quotationDraftSchema),
    defaultValues: initial,
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const e = form.formState.errors;
  const off = disabled || pending;
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label="Draft">
      <Stack gap="sm">
        {lines.fields.map((f, i) => (
          <LineFields
            key={f.id}
            control={form.control}
            index={i}
            products={products}
            priced={priced[i]}
            disabled={off}
            onRemove={lines.fields.length > 1 ? () => lines.remove(i) : undefined}
          />
        ))}
        {e.lines?.message && (
          <Text c="red" size="sm" role="alert">
            {e.lines.message}
          </Text>
        )}
        <Button
          variant="default"
          onClick={() => lines.append(EMPTY_LINE)}
          disabled={off || lines.fields.length >= QUOTATION_LIMITS.lines}
          style={{ alignSelf: 'flex-start' }}
        >
          Add a line
        </Button>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Delivery site"
            maxLength={QUOTATION_LIMITS.siteName}
            {...form.register('delivery.siteName')}
            error={e.delivery?.siteName?.message}
            disabled={off}
          />
          <NativeSelect
            label="County"
            data={[{ value: '', label: 'Choose a county' }, ...KENYA_COUNTY_NAMES]}
            {...form.register('delivery.county')}
            error={e.delivery?.county?.message}
            disabled={off}
          />
          <TextInput label="Sub-county" {...form.register('delivery.subCounty')} disabled={off} />
          <TextInput
            label="Street address"
            {...form.register('delivery.streetAddress')}
            error={e.delivery?.streetAddress?.message}
            disabled={off}
          />
          <TextInput
            type="date"
            label="Delivery date"
            {...form.register('delivery.date')}
            error={e.delivery?.date?.message}
            disabled={off}
          />
          <Controller
            control={form.control}
            name="deliveryFee"
            render={({ field }) => (
              <NumberInput
                label="Delivery fee (KES)"
                min={0}
                allowDecimal={false}
                thousandSeparator=","
                value={field.value}
                onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
                error={e.deliveryFee?.message}
                disabled={off}
              />
            )}
          />
          <TextInput
            type="date"
            label="Valid until"
            description={`From today to ${QUOTATION_LIMITS.validityDaysMax} days ahead`}
            {...form.register('validUntil')}
            error={e.validUntil?.message}
            disabled={off}
          />
        </SimpleGrid>
        <Textarea
          label="Note to the organisation"
          autosize
          minRows={2}
          maxLength={QUOTATION_LIMITS.note}
          {...form.register('note')}
          error={e.note?.message}
          disabled={off}
        />
        <Group>
          <Button type="submit" loading={pending} disabled={disabled}>
            Save draft
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
