import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useOrganisationChoices } from '../api/get-organisation-choices';

/**
 * Narrows the invoices to one organisation, found by name or KRA PIN as typed (the API searches);
 * cleared, every organisation's. `name` labels the chosen one before the search has found it.
 */
export function OrganisationPicker({
  value,
  name,
  onChange,
}: {
  value: string | undefined;
  name: string | undefined;
  onChange: (organisationId: string | null) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const choices = useOrganisationChoices(debounced);
  const found = choices.data ?? [];
  const data =
    value && !found.some((c) => c.value === value)
      ? [{ value, label: name ?? 'The chosen organisation' }, ...found]
      : found;
  return (
    <Select
      label="Organisation"
      placeholder="Every organisation"
      searchable
      clearable
      // Mantine hides its clear button from screen readers and the keyboard: here it is the way back.
      clearButtonProps={{
        'aria-label': 'Show every organisation',
        'aria-hidden': false,
        tabIndex: 0,
      }}
      data={data}
      value={value ?? null}
      onChange={onChange}
      onSearchChange={setSearch}
      // The API has searched already: every answer is a match.
      filter={({ options }) => options}
      nothingFoundMessage={choices.isFetching ? 'Searching…' : 'No organisation found'}
      w={{ base: '100%', xs: 360 }}
    />
  );
}
