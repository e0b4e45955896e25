import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmModal, confirmQuestion } from '../../../components/confirm-modal';
import { ListState } from '../../../components/list-state';
import { PaginationControl } from '../../../components/pagination-control';
import { PeopleList } from '../../../components/people-list';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import { useDeleteUser } from '../api/delete-user';
import { useUsers, type User } from '../api/get-users';

/** The customers list of the dashboard: search, pages, edit and delete for admins. */
export function UsersList() {
  const role = useSessionRole();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const query = useUsers({ page, search: debounced || undefined });
  const remove = useDeleteUser();
  const [deleting, setDeleting] = useState<User | null>(null);
  const users = query.data?.users ?? [];
  return (
    <Stack id="users">
      <Group justify="space-between">
        <Title order={3}>Users</Title>
        <TextInput
          aria-label="Search users"
          placeholder="Search users"
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
        isEmpty={query.isSuccess && users.length === 0}
        emptyText="no users to display"
      />
      {users.length > 0 && (
        <PeopleList
          people={users}
          actions={
            role === 'admin'
              ? (u) => (
                  <>
                    <Button
                      size="compact-xs"
                      variant="light"
                      onClick={() => navigate(paths.editUser(u._id))}
                    >
                      edit
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="light"
                      color="red"
                      onClick={() => setDeleting(u)}
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
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => remove.mutateAsync(deleting!._id)}
        message={confirmQuestion('delete', 'user')}
      />
    </Stack>
  );
}
