import { PasswordInput, Select, type MantineSize } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';

/** A till PIN's field: 4 to 6 digits, masked, never filled in by the browser. */
export function TillPinInput(
  props: Omit<ComponentPropsWithoutRef<typeof PasswordInput>, 'inputMode' | 'autoComplete'>,
) {
  return <PasswordInput inputMode="numeric" autoComplete="off" maxLength={6} {...props} />;
}

/** A staff member picked from the staff list, saying while it loads and when it could not. */
export function StaffSelect({
  staff,
  value,
  onChange,
  error,
  ...rest
}: {
  staff: { data?: { value: string; label: string }[]; isPending: boolean; isError: boolean };
  value: string;
  onChange: (id: string) => void;
  error?: string;
  label: string;
  size: MantineSize;
  disabled: boolean;
}) {
  return (
    <Select
      {...rest}
      placeholder={staff.isPending ? 'Loading staff…' : 'Choose a staff member'}
      data={staff.data ?? []}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      error={error ?? (staff.isError ? 'The staff list could not be loaded' : undefined)}
      searchable
    />
  );
}
