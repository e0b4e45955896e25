import {
  Anchor,
  Card,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  formatDate,
  ORGANISATION_KIND_LABELS,
  ORGANISATION_KINDS,
  ORGANISATION_STATUS_LABELS,
  ORGANISATION_STATUSES,
  type OrganisationKind,
  type OrganisationStatus,
} from '@spc/shared-contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { paths } from '../../../config/paths';
import { useOrganisations, type OrganisationRow } from '../api/organisations';
import { OrganisationStatusBadge } from '../components/organisation-status-badge';

function OrganisationsTable({ rows }: { rows: OrganisationRow[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Organisations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>KRA PIN</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((o) => (
            <Table.Tr key={o._id}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Anchor component={Link} to={paths.organisation(o._id)}>
                  {o.name}
                </Anchor>
              </Table.Td>
              <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {o.kraPin}
              </Table.Td>
              <Table.Td>{ORGANISATION_KIND_LABELS[o.kind]}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap', minWidth: 150 }}>
                <OrganisationStatusBadge status={o.status} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(o.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each organisation is a card: nothing scrolls sideways. */
function OrganisationCards({ rows }: { rows: OrganisationRow[] }) {
  return (
    <Stack gap="xs">
      {rows.map((o) => (
        <Card key={o._id} withBorder padding="sm" component="article" aria-label={o.name}>
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Anchor
              component={Link}
              to={paths.organisation(o._id)}
              fw={600}
              style={{ overflowWrap: 'anywhere' }}
            >
              {o.name}
            </Anchor>
            <OrganisationStatusBadge status={o.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {o.kraPin} · {ORGANISATION_KIND_LABELS[o.kind]} · created {formatDate(o.createdAt)}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * /manage/organisations: business accounts, newest first. `?status=pending` is the "waiting for
 * approval" view the dashboard links to; status and kind are kept in the address.
 */
export function OrganisationsRoute() {
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery('(min-width: 62em)', true);
  const status = (params.get('status') ?? '') as OrganisationStatus | '';
  const kind = (params.get('kind') ?? '') as OrganisationKind | '';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const query = useOrganisations({
    page,
    status: status || undefined,
    kind: kind || undefined,
    search: debounced || undefined,
  });
  const rows = query.data?.organisations ?? [];
  const setFilter = (name: 'status' | 'kind', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
    setPage(1);
  };
  const filtered = Boolean(status || kind || debounced);
  return (
    <Stack>
      <Title order={2}>Organisations</Title>
      <SegmentedControl
        aria-label="Show"
        data={[
          { value: '', label: 'All' },
          { value: 'pending', label: 'Waiting for approval' },
        ]}
        value={status === 'pending' ? 'pending' : ''}
        onChange={(v) => setFilter('status', v)}
        w={{ base: '100%', xs: 'auto' }}
        style={{ alignSelf: 'flex-start' }}
      />
      <Group>
        <TextInput
          aria-label="Search by name or KRA PIN"
          placeholder="Name or KRA PIN"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          maxLength={100}
          w={{ base: '100%', xs: 260 }}
        />
        <NativeSelect
          aria-label="Filter by status"
          data={[
            { value: '', label: 'All statuses' },
            ...ORGANISATION_STATUSES.map((s) => ({
              value: s,
              label: ORGANISATION_STATUS_LABELS[s],
            })),
          ]}
          value={status}
          onChange={(e) => setFilter('status', e.currentTarget.value)}
          w={{ base: '100%', xs: 200 }}
        />
        <NativeSelect
          aria-label="Filter by kind"
          data={[
            { value: '', label: 'All kinds' },
            ...ORGANISATION_KINDS.map((k) => ({ value: k, label: ORGANISATION_KIND_LABELS[k] })),
          ]}
          value={kind}
          onChange={(e) => setFilter('kind', e.currentTarget.value)}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && rows.length === 0}
        emptyText={
          status === 'pending' && !kind && !debounced
            ? 'No organisation is waiting for approval.'
            : filtered
              ? 'No organisations match these filters.'
              : 'No organisations yet.'
        }
      />
      {rows.length > 0 &&
        (wide ? <OrganisationsTable rows={rows} /> : <OrganisationCards rows={rows} />)}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
    </Stack>
  );
}
