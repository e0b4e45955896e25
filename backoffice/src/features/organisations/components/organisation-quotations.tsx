import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatDate,
  formatMoney,
  QUOTATION_LIMITS,
  staffQuotationRequestSchema,
  type QuotationRequestLine,
  type StaffQuotationRequestForm,
} from '@spc/shared-contracts';
import { Controller, useFieldArray, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ListState } from '../../../components/list-state';
import { QuotationStatusBadge } from '../../../components/quotation-status-badge';
import { paths } from '../../../config/paths';
import { useCatalogueUnits, type CatalogueProduct } from '../api/organisations';
import { useCreateQuotation, useOrganisationQuotations } from '../api/organisation-quotations';

const EMPTY_LINE = { productId: '', unitId: '', quantity: 1 };

function LineFields({
  form,
  index,
  products,
  onRemove,
}: {
  form: UseFormReturn<StaffQuotationRequestForm>;
  index: number;
  products: CatalogueProduct[];
  onRemove?: () => void;
}) {
  const productId = useWatch({ control: form.control, name: `lines.${index}.productId` });
  const units = products.find((p) => p._id === productId)?.units ?? [];
  const e = form.formState.errors.lines?.[index];
  return (
    <Group align="flex-start" wrap="wrap" gap="xs" role="group" aria-label={`Line ${index + 1}`}>
      <NativeSelect
        label="Product"
        data={[
          { value: '', label: 'Choose a product' },
          ...products.map((p) => ({ value: p._id, label: p.name })),
        ]}
        {...form.register(`lines.${index}.productId`, {
          onChange: () => form.setValue(`lines.${index}.unitId`, ''),
        })}
        error={e?.productId?.message}
        w={{ base: '100%', xs: 220 }}
      />
      <NativeSelect
        label="Unit"
        data={[
          { value: '', label: 'Choose a unit' },
          ...units.map((u) => ({ value: u._id, label: u.name })),
        ]}
        {...form.register(`lines.${index}.unitId`)}
        error={e?.unitId?.message}
        w={{ base: '100%', xs: 160 }}
      />
      <Controller
        control={form.control}
        name={`lines.${index}.quantity`}
        render={({ field }) => (
          <NumberInput
            label="Quantity"
            min={1}
            allowDecimal={false}
            thousandSeparator=","
            value={field.value}
            onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
            error={e?.quantity?.message}
            w={{ base: '100%', xs: 140 }}
          />
        )}
      />
      {onRemove && (
        <ActionIcon
          variant="subtle"
          color="red"
          mt={28}
          aria-label={`Remove line ${index + 1}`}
          onClick={onRemove}
        >
          ×
        </ActionIcon>
      )}
    </Group>
  );
}

/** What staff take down from a phone call: the lines asked and a note; pricing is the desk's. */
function NewQuotationForm({
  products,
  pending,
  onSubmit,
}: {
  products: CatalogueProduct[];
  pending: boolean;
  onSubmit: (body: { lines: QuotationRequestLine[]; note: string }) => void;
}) {
  const form = useForm<StaffQuotationRequestForm>({
    resolver: zodResolver(staffQuotationRequestSchema),
    defaultValues: { lines: [EMPTY_LINE], note: '' },
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  return (
    <form
      aria-label="New quotation"
      noValidate
      onSubmit={form.handleSubmit((v) => onSubmit(staffQuotationRequestSchema.parse(v)))}
    >
      <Stack gap="sm">
        {lines.fields.map((f, i) => (
          <LineFields
            key={f.id}
            form={form}
            index={i}
            products={products}
            onRemove={lines.fields.length > 1 ? () => lines.remove(i) : undefined}
          />
        ))}
        <Button
          variant="default"
          onClick={() => lines.append(EMPTY_LINE)}
          disabled={lines.fields.length >= QUOTATION_LIMITS.lines}
          style={{ alignSelf: 'flex-start' }}
        >
          Add a line
        </Button>
        <Textarea
          label="Note (what the caller said)"
          autosize
          minRows={2}
          maxLength={QUOTATION_LIMITS.note}
          {...form.register('note')}
          error={form.formState.errors.note?.message}
        />
        <Button type="submit" loading={pending}>
          Create the quotation
        </Button>
      </Stack>
    </form>
  );
}

/** An organisation's quotations, and a new one written by staff from a phone call. */
export function OrganisationQuotations({
  organisationId,
  approved,
}: {
  organisationId: string;
  approved: boolean;
}) {
  const query = useOrganisationQuotations(organisationId);
  const [opened, setOpened] = useState(false);
  const catalogue = useCatalogueUnits(opened);
  const create = useCreateQuotation(organisationId);
  const navigate = useNavigate();
  const rows = query.data?.quotations ?? [];
  return (
    <Stack gap="sm">
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && rows.length === 0}
        emptyText="No quotations yet."
      />
      {rows.length > 0 && (
        <Stack gap={4} component="ul" p={0} m={0} aria-label="Quotations of the organisation">
          {rows.map((q) => (
            <Group key={q._id} component="li" gap="xs" wrap="wrap" style={{ listStyle: 'none' }}>
              <Anchor component={Link} to={paths.quotation(q._id)} ff="monospace">
                {q.number}
              </Anchor>
              <QuotationStatusBadge status={q.status} />
              <Text size="sm">{q.total === null ? '' : formatMoney(q.total)}</Text>
              <Text size="sm" c="dimmed">
                updated {formatDate(q.updatedAt)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {approved ? (
        <Button onClick={() => setOpened(true)} style={{ alignSelf: 'flex-start' }}>
          New quotation
        </Button>
      ) : (
        <Text size="sm" c="dimmed">
          Quotations are for approved organisations.
        </Text>
      )}
      <Modal opened={opened} onClose={() => setOpened(false)} title="New quotation" size="lg">
        {catalogue.isPending ? (
          <Text size="sm">Loading the products…</Text>
        ) : (
          <NewQuotationForm
            products={catalogue.data ?? []}
            pending={create.isPending}
            onSubmit={(body) =>
              create.mutate(body, {
                onSuccess: ({ quotation }) => navigate(paths.quotation(quotation._id)),
              })
            }
          />
        )}
      </Modal>
    </Stack>
  );
}
