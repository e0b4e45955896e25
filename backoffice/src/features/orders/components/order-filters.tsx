import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  statusLabel,
  type OrderSortField,
  type OrderStatus,
  type PaymentStatus,
  type SortOrder,
} from '@spc/shared-contracts';
import { useEffect, useState } from 'react';
import type { OrdersFilter } from '../api/get-orders';
import type { FilterChange } from './use-order-filters';

const SORTS: { value: string; label: string }[] = [
  { value: 'orderDate:desc', label: 'Newest first' },
  { value: 'orderDate:asc', label: 'Oldest first' },
  { value: 'totalAmount:desc', label: 'Total: highest first' },
  { value: 'totalAmount:asc', label: 'Total: lowest first' },
];

const statusOptions = (values: readonly string[]) =>
  values.map((v) => ({ value: v, label: statusLabel(v) }));

/** Status, payment status, dates, search and sort of an orders list. */
export function OrderFilters({
  filter,
  onChange,
  onClear,
}: {
  filter: OrdersFilter;
  onChange: (change: FilterChange, options?: { replace?: boolean }) => void;
  onClear: () => void;
}) {
  const [search, setSearch] = useState(filter.search ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  // The URL wins when it changes under us (back button, a shared link, Clear filters).
  const [urlSearch, setUrlSearch] = useState(filter.search);
  if (urlSearch !== filter.search) {
    setUrlSearch(filter.search);
    if ((filter.search ?? '') !== search.trim()) setSearch(filter.search ?? '');
  }
  useEffect(() => {
    if (debounced !== (filter.search ?? '')) onChange({ search: debounced }, { replace: true });
    // Only the typed text triggers this; the URL's value is compared, not watched.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const sort = `${filter.sortBy ?? 'orderDate'}:${filter.sortOrder ?? 'desc'}`;
  const active =
    !!filter.status ||
    !!filter.paymentStatus ||
    !!filter.from ||
    !!filter.to ||
    !!filter.search ||
    sort !== 'orderDate:desc';

  return (
    <Group gap="sm" align="flex-end">
      <TextInput
        label="Search"
        aria-label="Search orders"
        placeholder="Order number, name or phone"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={{ base: '100%', xs: 240 }}
      />
      <Select
        label="Order status"
        aria-label="Order status"
        placeholder="All statuses"
        clearable
        data={statusOptions(ORDER_STATUSES)}
        value={filter.status ?? null}
        onChange={(v) => onChange({ status: (v as OrderStatus | null) ?? undefined })}
        w={{ base: '47%', xs: 150 }}
      />
      <Select
        label="Payment status"
        aria-label="Payment status"
        placeholder="Paid or not"
        clearable
        data={statusOptions(PAYMENT_STATUSES)}
        value={filter.paymentStatus ?? null}
        onChange={(v) => onChange({ paymentStatus: (v as PaymentStatus | null) ?? undefined })}
        w={{ base: '47%', xs: 130 }}
      />
      <TextInput
        type="date"
        label="From"
        aria-label="Placed from"
        value={filter.from ?? ''}
        max={filter.to}
        onChange={(e) => onChange({ from: e.currentTarget.value || undefined })}
        w={{ base: '47%', xs: 150 }}
      />
      <TextInput
        type="date"
        label="To"
        aria-label="Placed to"
        value={filter.to ?? ''}
        min={filter.from}
        onChange={(e) => onChange({ to: e.currentTarget.value || undefined })}
        w={{ base: '47%', xs: 150 }}
      />
      <Select
        label="Sort"
        aria-label="Sort orders"
        data={SORTS}
        value={sort}
        allowDeselect={false}
        onChange={(v) => {
          const [sortBy, sortOrder] = (v ?? 'orderDate:desc').split(':') as [
            OrderSortField,
            SortOrder,
          ];
          const isDefault = sortBy === 'orderDate' && sortOrder === 'desc';
          onChange(isDefault ? { sortBy: undefined, sortOrder: undefined } : { sortBy, sortOrder });
        }}
        w={{ base: '100%', xs: 190 }}
      />
      {active && (
        <Button variant="subtle" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
