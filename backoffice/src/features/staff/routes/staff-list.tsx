import { Button, Group, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmModal, confirmQuestion } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { PeopleList } from '../../../components/people-list';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import { useDeactivateStaff } from '../api/deactivate-staff';
import { useDeleteStaff } from '../api/delete-staff';
import { useStaff, type StaffMember } from '../api/get-staff';
import { useRestoreStaff } from '../api/restore-staff';

type Pending = { kind: 'deactivate' | 'restore' | 'delete'; member: StaffMember } | null;

/** /admin/staff: active staff (edit, deactivate) and inactive staff (restore, delete). */
export function StaffListRoute() {
  const role = useSessionRole();
  const navigate = useNavigate();
  const [tab, setTab] = useState<'active' | 'inactive'>('active');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const query = useStaff({ page, search: debounced || undefined, inactive: tab === 'inactive' });
  const deactivate = useDeactivateStaff();
  const restore = useRestoreStaff();
  const remove = useDeleteStaff();
  const [pending, setPending] = useState<Pending>(null);
  const staff = query.data?.staff ?? [];
  const isAdmin = role === 'admin';

  const run = () => {
    if (!pending) return Promise.resolve();
    const id = pending.member._id;
    if (pending.kind === 'deactivate') return deactivate.mutateAsync(id);
    if (pending.kind === 'restore') return restore.mutateAsync(id);
    return remove.mutateAsync(id);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Staff</Title>
        <Button component={Link} to={paths.createStaff}>
          Add Staff
        </Button>
      </Group>
      <Group>
        <SegmentedControl
          value={tab}
          onChange={(v) => {
            setTab(v as 'active' | 'inactive');
            setPage(1);
          }}
          data={[
            { value: 'active', label: 'Active staff' },
            { value: 'inactive', label: 'Inactive staff' },
          ]}
        />
        <TextInput
          aria-label="Search staff"
          placeholder="Search staff"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
      </Group>
      <ListState
        isLoading={query.isPending}
        isError={query.isError}
        isEmpty={query.isSuccess && staff.length === 0}
        emptyText="no staff to display"
      />
      {staff.length > 0 && (
        <PeopleList
          people={staff}
          cardLink={(m) => paths.colleague(m._id)}
          actions={
            isAdmin
              ? (m) =>
                  tab === 'active' ? (
                    <>
                      <Button
                        size="compact-xs"
                        variant="light"
                        onClick={() => navigate(paths.editStaff(m._id))}
                      >
                        edit
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="orange"
                        onClick={() => setPending({ kind: 'deactivate', member: m })}
                      >
                        deactivate
                      </Button>
                    </>
                  ) : (
                    <>
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="teal"
                        onClick={() => setPending({ kind: 'restore', member: m })}
                      >
                        restore
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="red"
                        onClick={() => setPending({ kind: 'delete', member: m })}
                      >
                        delete
                      </Button>
                    </>
                  )
              : undefined
          }
        />
      )}
      <PaginationControl page={page} totalPages={query.data?.totalPages ?? 0} onChange={setPage} />
      <ConfirmModal
        opened={pending !== null}
        onClose={() => setPending(null)}
        onConfirm={run}
        message={confirmQuestion(pending?.kind ?? 'delete', 'staff')}
      />
    </Stack>
  );
}
