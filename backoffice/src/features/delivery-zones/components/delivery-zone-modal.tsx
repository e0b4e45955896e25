import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Stack,
  TextInput,
} from '@mantine/core';
import {
  areaLabel,
  DELIVERY_ZONE_LIMITS,
  deliveryZoneFormSchema,
  type DeliveryArea,
  type DeliveryZoneForm,
} from '@spc/shared-contracts';
import { KENYA_COUNTIES } from '@spc/shared-contracts/locations';
import { Controller, useForm } from 'react-hook-form';
import type { DeliveryZone } from '../api/get-delivery-zones';
import { useSaveDeliveryZone } from '../api/save-delivery-zone';

const SEPARATOR = ' / ';

/** Whole counties and their sub-counties, grouped by county, as the picker lists them. */
const PLACE_OPTIONS = KENYA_COUNTIES.map((c) => ({
  group: c.name,
  items: [
    { value: c.name, label: `${c.name} (whole county)` },
    ...[...new Set(c.sub_counties.map((s) => s.name))].map((s) => ({
      value: `${c.name}${SEPARATOR}${s}`,
      label: `${c.name}${SEPARATOR}${s}`,
    })),
  ],
}));

const toArea = (value: string): DeliveryArea => {
  const [county, subCounty] = value.split(SEPARATOR);
  return subCounty ? { county: county!, subCounty } : { county: county! };
};

/** Add/Edit delivery zone: name, the places it covers, its fee and its days. */
export function DeliveryZoneModal({
  opened,
  onClose,
  zone,
}: {
  opened: boolean;
  onClose: () => void;
  zone?: DeliveryZone | null;
}) {
  const mutation = useSaveDeliveryZone();
  const form = useForm<DeliveryZoneForm>({
    resolver: zodResolver(deliveryZoneFormSchema),
    values: {
      name: zone?.name ?? '',
      fee: zone?.fee ?? 0,
      days: zone?.days ?? 3,
      restOfKenya: zone?.restOfKenya ?? false,
      areas: zone?.areas.map((a) => (a.subCounty ? a : { county: a.county })) ?? [],
    },
  });
  const e = form.formState.errors;
  const submit = form.handleSubmit((body) =>
    mutation.mutate({ id: zone?._id, body }, { onSuccess: () => setTimeout(onClose, 1000) }),
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={zone ? 'Edit delivery zone' : 'Add delivery zone'}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Zone name"
            maxLength={DELIVERY_ZONE_LIMITS.nameMax}
            {...form.register('name')}
            error={e.name?.message}
            disabled={mutation.isPending}
          />
          <Controller
            control={form.control}
            name="areas"
            render={({ field }) => (
              <MultiSelect
                label="Counties and sub-counties"
                description="A sub-county listed in a zone takes that zone's fee over its county's"
                placeholder="Search a county or sub-county"
                data={PLACE_OPTIONS}
                searchable
                clearable
                hidePickedOptions
                maxDropdownHeight={280}
                value={field.value.map(areaLabel)}
                onChange={(values) => field.onChange(values.map(toArea))}
                onBlur={field.onBlur}
                error={e.areas?.message ?? e.areas?.root?.message}
                disabled={mutation.isPending}
              />
            )}
          />
          <Controller
            control={form.control}
            name="restOfKenya"
            render={({ field }) => (
              <Checkbox
                label="Also covers the rest of Kenya (every place no other zone covers)"
                checked={field.value}
                onChange={(ev) => field.onChange(ev.currentTarget.checked)}
                disabled={mutation.isPending}
              />
            )}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="fee"
              render={({ field }) => (
                <NumberInput
                  label="Delivery fee"
                  prefix="KSH "
                  thousandSeparator=","
                  allowDecimal={false}
                  allowNegative={false}
                  min={0}
                  max={DELIVERY_ZONE_LIMITS.feeMax}
                  value={field.value}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : Number.NaN)}
                  onBlur={field.onBlur}
                  error={e.fee?.message}
                  disabled={mutation.isPending}
                />
              )}
            />
            <Controller
              control={form.control}
              name="days"
              render={({ field }) => (
                <NumberInput
                  label="Days to deliver"
                  allowDecimal={false}
                  allowNegative={false}
                  min={DELIVERY_ZONE_LIMITS.daysMin}
                  max={DELIVERY_ZONE_LIMITS.daysMax}
                  value={field.value}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : Number.NaN)}
                  onBlur={field.onBlur}
                  error={e.days?.message}
                  disabled={mutation.isPending}
                />
              )}
            />
          </Group>
          <Button type="submit" loading={mutation.isPending}>
            {zone ? 'Update zone' : 'Add zone'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
