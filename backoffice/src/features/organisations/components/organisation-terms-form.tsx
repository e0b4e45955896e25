import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import {
  DEFAULT_INVOICING_MODE,
  formatMoney,
  INVOICING_MODE_LABELS,
  INVOICING_MODES,
  ORGANISATION_LIMITS,
  organisationTermsSchema,
  type InvoicingMode,
  type OrganisationTerms,
} from '@spc/shared-contracts';
import { Controller, useForm } from 'react-hook-form';

/**
 * The terms with how the organisation is invoiced (issue 44: per tranche delivered or once for the
 * whole order), which the API keeps with them; terms saved before it read as per tranche.
 */
export type TermsWithInvoicing = OrganisationTerms & { invoicing: InvoicingMode };

export const withInvoicing = (
  terms: OrganisationTerms & { invoicing?: InvoicingMode },
): TermsWithInvoicing => ({ ...terms, invoicing: terms.invoicing ?? DEFAULT_INVOICING_MODE });

/** Staff read the terms; only admins change them. */
export function OrganisationTermsView({ terms }: { terms: OrganisationTerms }) {
  const { invoicing } = withInvoicing(terms);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} aria-label="Terms">
      <Text>
        Payment days: <b>{terms.paymentDays}</b>
      </Text>
      <Text style={{ overflowWrap: 'anywhere' }}>
        Credit limit: <b>{formatMoney(terms.creditLimit)}</b>
      </Text>
      <Text>
        May order on account: <b>{terms.onAccount ? 'Yes' : 'No'}</b>
      </Text>
      <Text>
        Invoicing: <b>{INVOICING_MODE_LABELS[invoicing]}</b>
      </Text>
    </SimpleGrid>
  );
}

/** What the form sends: `invoicing` left out keeps how the organisation is invoiced. */
type TermsValues = Omit<OrganisationTerms, 'invoicing'> & { invoicing?: InvoicingMode };

export function OrganisationTermsForm({
  initial,
  pending,
  onSubmit,
}: {
  initial: OrganisationTerms;
  pending?: boolean;
  onSubmit: (values: TermsValues) => void;
}) {
  const form = useForm<TermsValues>({
    resolver: zodResolver(organisationTermsSchema),
    mode: 'onChange',
    defaultValues: withInvoicing(initial),
  });
  const e = form.formState.errors;
  return (
    <form
      onSubmit={form.handleSubmit((v) =>
        onSubmit({ ...v, invoicing: form.getValues('invoicing') }),
      )}
      noValidate
      aria-label="Terms"
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="paymentDays"
            render={({ field }) => (
              <NumberInput
                label="Payment days"
                description="Days after the invoice (0: on delivery)"
                min={0}
                max={ORGANISATION_LIMITS.paymentDaysMax}
                allowDecimal={false}
                value={field.value}
                onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
                error={e.paymentDays?.message}
                disabled={pending}
              />
            )}
          />
          <Controller
            control={form.control}
            name="creditLimit"
            render={({ field }) => (
              <NumberInput
                label="Credit limit (KES)"
                description="Invoiced and unpaid, plus accepted and not invoiced"
                min={0}
                max={ORGANISATION_LIMITS.creditLimitMax}
                allowDecimal={false}
                thousandSeparator=","
                value={field.value}
                onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
                error={e.creditLimit?.message}
                disabled={pending}
              />
            )}
          />
        </SimpleGrid>
        <Checkbox label="May order on account" {...form.register('onAccount')} disabled={pending} />
        <NativeSelect
          label="Invoicing"
          description="When its orders on account are invoiced"
          data={INVOICING_MODES.map((m) => ({ value: m, label: INVOICING_MODE_LABELS[m] }))}
          disabled={pending}
          {...form.register('invoicing')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={!form.formState.isDirty}>
            Save terms
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
