import { Button, Group, Select, SimpleGrid, Switch } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { auditActivityName, ROLES, type Role } from '@spc/shared-contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { isFiltered, NO_FILTERS, type AuditFilters } from '../api/audit-query';
import { calendarLabels } from '../../../components/calendar-labels';

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', staff: 'Staff', customer: 'Customer' };

export interface AuditPersonOption {
  id: string;
  fullName: string;
  role: string;
}

/**
 * The audit trail's filters: person, role, activity, a range of days and the switch for customers'
 * sign-ins. Each change applies at once (`onChange`); a range applies once both ends are picked.
 */
export function AuditFiltersForm({
  filters,
  onChange,
  people,
  actions,
}: {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
  people: readonly AuditPersonOption[];
  actions: readonly string[];
}) {
  // A range being picked (one end so far) is held here until its second end is chosen.
  const [picking, setPicking] = useState<DatesRangeValue<string> | null>(null);
  const range: DatesRangeValue<string> = picking ?? [filters.from ?? null, filters.to ?? null];

  const personOptions = people.map((p) => ({
    value: p.id,
    label: `${p.fullName} (${ROLE_LABELS[p.role as Role] ?? p.role})`,
  }));
  if (filters.user && !people.some((p) => p.id === filters.user))
    personOptions.push({ value: filters.user, label: 'The person in the address' });

  const codes = new Set(actions);
  if (filters.action) codes.add(filters.action);
  const activityOptions = [...codes]
    .map((code) => ({ value: code, label: auditActivityName(code) }))
    .sort((a, b) => a.label.localeCompare(b.label));

  const pickRange = (value: DatesRangeValue<string>) => {
    const [from, to] = value;
    if (from && !to) return setPicking(value);
    setPicking(null);
    onChange({ ...filters, from: from ?? undefined, to: to ?? undefined });
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">
      <Select
        label="Person"
        placeholder="Anyone"
        data={personOptions}
        value={filters.user ?? null}
        onChange={(user) => onChange({ ...filters, user: user ?? undefined })}
        searchable
        clearable
        nothingFoundMessage="Nobody by that name"
      />
      <Select
        label="Role"
        placeholder="Any role"
        data={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
        value={filters.role ?? null}
        onChange={(role) => onChange({ ...filters, role: (role as Role | null) ?? undefined })}
        clearable
      />
      <Select
        label="Activity"
        placeholder="Any activity"
        data={activityOptions}
        value={filters.action ?? null}
        onChange={(action) => onChange({ ...filters, action: action ?? undefined })}
        searchable
        clearable
        nothingFoundMessage="No such activity"
      />
      <DatePickerInput
        {...calendarLabels}
        type="range"
        label="Dates"
        placeholder="All dates"
        valueFormat="DD/MM/YYYY"
        value={range}
        onChange={pickRange}
        maxDate={dayjs().format('YYYY-MM-DD')}
        allowSingleDateInRange
        clearable
      />
      <Group align="flex-end" pb={6}>
        <Switch
          label="Hide customers’ sign-ins"
          checked={filters.hideCustomerSignIns}
          onChange={(e) => onChange({ ...filters, hideCustomerSignIns: e.currentTarget.checked })}
        />
      </Group>
      <Group align="flex-end">
        <Button
          variant="subtle"
          disabled={!isFiltered(filters)}
          onClick={() => onChange(NO_FILTERS)}
        >
          Clear filters
        </Button>
      </Group>
    </SimpleGrid>
  );
}
