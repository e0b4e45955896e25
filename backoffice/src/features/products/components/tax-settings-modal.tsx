import { Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { isTaxType, TAX_TYPES, taxTypeText } from '@spc/shared-contracts';
import { useState } from 'react';
import { PageLoader } from '../../../components/page-loader';
import { useSaveTaxSettings, useTaxSettings } from '../api/tax-settings';

export const TAX_SETTINGS_LOAD_ERROR = 'Could not load the tax settings; try again';
const NO_DEFAULT = 'none';

/**
 * The admin's shop default tax type: what a product without its own is taxed at. "No default"
 * makes every product need its own (the API then refuses one without).
 */
export function TaxSettingsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const settings = useTaxSettings();
  const mutation = useSaveTaxSettings();
  const saved = settings.data ? (settings.data.defaultTaxType ?? NO_DEFAULT) : undefined;
  const [choice, setChoice] = useState<string>();
  const value = choice ?? saved ?? NO_DEFAULT;
  const close = () => {
    setChoice(undefined);
    onClose();
  };
  const save = () =>
    mutation.mutate(isTaxType(value) ? value : null, {
      onSuccess: () => setTimeout(close, 1000),
    });

  return (
    <Modal opened={opened} onClose={close} title="Tax settings" centered>
      {settings.isPending ? (
        <PageLoader />
      ) : settings.isError ? (
        <Stack align="center" py="md">
          <Text c="red" role="alert">
            {TAX_SETTINGS_LOAD_ERROR}
          </Text>
          <Button onClick={() => settings.refetch()} loading={settings.isFetching}>
            Try again
          </Button>
        </Stack>
      ) : (
        <Stack>
          <NativeSelect
            label="Shop default tax type (KRA eTIMS)"
            description="Products without a tax type of their own, and their units, are taxed at this one"
            data={[
              { value: NO_DEFAULT, label: 'No default: every product needs its own' },
              ...TAX_TYPES.map((t) => ({ value: t, label: taxTypeText(t) })),
            ]}
            value={value}
            onChange={(ev) => setChoice(ev.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button onClick={save} loading={mutation.isPending} disabled={value === saved}>
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
