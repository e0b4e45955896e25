import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Fieldset,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  KENYA_COUNTY_NAMES,
  signedNoteSchema,
  TRANCHE_LIMITS as L,
  tranchePlanSchema,
  type SignedNoteValues,
  type TrancheFormLine,
  type TranchePlanValues,
} from '@spc/shared-contracts';
import { findCounty } from '@spc/shared-contracts/locations';
import { useEffect, useRef } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';

const units = (n: number) => n.toLocaleString('en-US');

/** Whole units from a NumberInput: empty is undefined. */
const toNumber = (v: string | number) => (typeof v === 'number' ? v : undefined);

/**
 * Sends once: a second submit while the first is on its way (a double click before the button
 * shows it is busy) is dropped.
 */
function useOnce<T>(pending: boolean | undefined, send: (values: T) => void) {
  const sending = useRef(false);
  useEffect(() => {
    if (!pending) sending.current = false;
  }, [pending]);
  return (values: T) => {
    if (pending || sending.current) return;
    sending.current = true;
    send(values);
  };
}

/**
 * Plan (or change) a tranche: the site, its contact, the day, and how many units of each line of
 * the order go in it (empty: none), each within what is left to plan.
 */
export function TranchePlanForm({
  lines,
  today,
  defaultValues,
  submitLabel,
  pending,
  onSubmit,
}: {
  lines: TrancheFormLine[];
  today: string;
  defaultValues: TranchePlanValues;
  submitLabel: string;
  pending?: boolean;
  onSubmit: (values: TranchePlanValues) => void;
}) {
  const form = useForm<TranchePlanValues>({
    resolver: zodResolver(tranchePlanSchema(lines, today)),
    defaultValues,
  });
  const e = form.formState.errors;
  const county = findCounty(useWatch({ control: form.control, name: 'site.county' }) ?? '');
  const send = useOnce(pending, onSubmit);
  // With its lines registered one by one, the resolver files the list's own error under `root`.
  const noLines = e.quantities?.root?.message ?? e.quantities?.message;
  return (
    <form onSubmit={form.handleSubmit(send)} noValidate aria-label="Tranche">
      <Stack gap="sm">
        <TextInput
          label="Site"
          description="The planting site's name, as the delivery note shows it"
          maxLength={L.siteName}
          error={e.site?.name?.message}
          {...form.register('site.name')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NativeSelect
            label="County"
            data={[{ value: '', label: 'Choose a county' }, ...KENYA_COUNTY_NAMES]}
            error={e.site?.county?.message}
            {...form.register('site.county', {
              onChange: () => form.setValue('site.subCounty', ''),
            })}
          />
          <NativeSelect
            label="Sub-county"
            data={[
              { value: '', label: county ? 'None given' : 'Choose the county first' },
              ...(county?.sub_counties.map((s) => s.name) ?? []),
            ]}
            disabled={!county}
            {...form.register('site.subCounty')}
          />
          <TextInput
            label="Contact's name"
            description="Who receives the load and signs its note"
            maxLength={L.contactName}
            error={e.site?.contact?.name?.message}
            {...form.register('site.contact.name')}
          />
          <TextInput
            label="Contact's phone"
            description="A Kenyan mobile: the load's texts go to it"
            type="tel"
            autoComplete="off"
            error={e.site?.contact?.phone?.message}
            {...form.register('site.contact.phone')}
          />
          <TextInput
            type="date"
            label="Date"
            min={today}
            error={e.date?.message}
            {...form.register('date')}
          />
        </SimpleGrid>
        <Fieldset legend="Units in this tranche" variant="unstyled">
          <Stack gap="xs">
            {lines.map((line, i) => (
              <Controller
                key={line.words}
                control={form.control}
                name={`quantities.${i}`}
                render={({ field }) => (
                  <NumberInput
                    label={line.words.replace(/^[\d,]+ × /, '')}
                    description={`${units(line.max)} left to plan`}
                    allowDecimal={false}
                    allowNegative={false}
                    thousandSeparator=","
                    min={0}
                    max={L.lineQuantity}
                    disabled={line.max === 0 && !field.value}
                    value={field.value ?? ''}
                    onChange={(v) => field.onChange(toNumber(v))}
                    onBlur={field.onBlur}
                    error={e.quantities?.[i]?.message}
                  />
                )}
              />
            ))}
          </Stack>
        </Fieldset>
        {noLines && (
          <Text c="red" size="sm" role="alert">
            {noLines}
          </Text>
        )}
        <Button type="submit" loading={pending} disabled={pending}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * The signed delivery note: who signed, when (now by default), and what arrived of each line of
 * the load (what left by default); a line delivered short needs its reason.
 */
export function SignedNoteForm({
  lines,
  dispatchedAt,
  defaultValues,
  pending,
  onSubmit,
}: {
  /** The load's lines: `max` is what left of each. */
  lines: TrancheFormLine[];
  dispatchedAt: string | null;
  defaultValues: SignedNoteValues;
  pending?: boolean;
  onSubmit: (values: SignedNoteValues) => void;
}) {
  const form = useForm<SignedNoteValues>({
    resolver: zodResolver(signedNoteSchema(lines, dispatchedAt)),
    defaultValues,
  });
  const e = form.formState.errors;
  const delivered = useWatch({ control: form.control, name: 'lines' });
  const send = useOnce(pending, onSubmit);
  return (
    <form onSubmit={form.handleSubmit(send)} noValidate aria-label="Signed delivery note">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label="Signed by"
            description="The name written under the signature"
            maxLength={L.signedBy}
            error={e.signedBy?.message}
            {...form.register('signedBy')}
          />
          <TextInput
            type="datetime-local"
            label="Signed at"
            error={e.signedAt?.message}
            {...form.register('signedAt')}
          />
        </SimpleGrid>
        {lines.map((line, i) => {
          const short = (delivered[i]?.delivered ?? line.max) < line.max;
          return (
            <Fieldset key={line.words} legend={line.words} variant="filled" p="xs">
              <Stack gap="xs">
                <Controller
                  control={form.control}
                  name={`lines.${i}.delivered`}
                  render={({ field }) => (
                    <NumberInput
                      label="Delivered (units)"
                      description={`${units(line.max)} left the nursery`}
                      allowDecimal={false}
                      allowNegative={false}
                      thousandSeparator=","
                      min={0}
                      max={L.lineQuantity}
                      value={field.value ?? ''}
                      onChange={(v) => field.onChange(toNumber(v))}
                      onBlur={field.onBlur}
                      error={e.lines?.[i]?.delivered?.message}
                    />
                  )}
                />
                {short && (
                  <TextInput
                    label="Why short"
                    description="The rest came back: it is to deliver in a later tranche"
                    maxLength={L.shortReason}
                    error={e.lines?.[i]?.shortReason?.message}
                    {...form.register(`lines.${i}.shortReason`)}
                  />
                )}
              </Stack>
            </Fieldset>
          );
        })}
        <Button type="submit" loading={pending} disabled={pending}>
          Record signed note
        </Button>
      </Stack>
    </form>
  );
}
